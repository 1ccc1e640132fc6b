//go:build race

package wire

// raceEnabled: the race detector's shadow memory grows with the heap, so
// the memory tests send less under it.
const raceEnabled = true
