//go:build race

package generator

// raceEnabled: the race detector slows generation tenfold, so the
// real-spec oracles run on the repository's small specs only.
const raceEnabled = true
