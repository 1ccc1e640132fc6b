//go:build !race

package wire

// raceEnabled is false: see race_test.go.
const raceEnabled = false
