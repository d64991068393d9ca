//go:build race

package redisstore

// raceEnabled: the race detector slows every process of the fleet tests
// 5–10×, on a machine the 8 processes already share: their start-up, call
// rates and propagation delays are then not what the quantitative
// assertions are about, so those are logged instead; everything else
// (no fault, no Redis error, every attempt reached the server) is still
// asserted.
const raceEnabled = true
