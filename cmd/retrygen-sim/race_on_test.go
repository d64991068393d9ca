//go:build race

package main

// raceEnabled: the race detector slows the simulator 10×; the heaviest
// simulations (1,000 clients, eight runs) are skipped under it.
const raceEnabled = true
