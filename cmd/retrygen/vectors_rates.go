package main

// runCubic checks a CUBIC scenario (adaptive mode, §6) against the runtime's
// rate limiter.
func runCubic(sc *scenario) result { return result{skip: "adaptive mode not wired yet"} }

// runSendingRate checks a sending-rate scenario (adaptive mode, §6).
func runSendingRate(sc *scenario) result { return result{skip: "adaptive mode not wired yet"} }
