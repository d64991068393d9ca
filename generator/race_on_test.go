//go:build race

package generator

// raceEnabled: the race detector makes loading the largest specs take
// minutes (TestKinDecodeMatchesKin leaves them out).
const raceEnabled = true
