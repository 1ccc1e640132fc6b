//go:build !race

package records

// raceEnabled is false: see race_test.go.
const raceEnabled = false
