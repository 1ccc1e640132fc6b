//go:build race

package proxy

// raceEnabled: the race detector is on, and sync.Pool drops items at random
// (the pipes of splice among them), so allocation counts mean nothing.
const raceEnabled = true
