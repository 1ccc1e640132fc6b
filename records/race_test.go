//go:build race

package records

// raceEnabled: the race detector's instrumentation allocates (zstd's
// decoder, for one), so the zero-allocation tests skip under it.
const raceEnabled = true
