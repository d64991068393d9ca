//go:build !race

package generator

// raceEnabled: see race_on_test.go.
const raceEnabled = false
