//go:build race

package generator

// raceEnabled: the race detector makes loading the largest specs take
// minutes (TestKinDecodeMatchesKin leaves them out), and slows generation
// tenfold (the real-spec oracle of struct printing runs on the
// repository's small specs only).
const raceEnabled = true
