// Package engine is the retry engine's vocabulary for the programs that
// drive or plug into it rather than call an API: the attempt state
// machine's events and actions (retry-behavior.md §3), the classification
// and outcome of an attempt (§4), the retry quota (§5), the client-side
// rate limiter and its CUBIC formulas (§6), the throttle windows and their
// headers (§8), the clock, and the precedence levels of a resolved setting.
//
// Generated clients and their users need only package runtime; this
// package is for the simulator (cmd/retrygen-sim), the conformance runner
// (retrygen vectors), shared stores (runtime/redisstore) and tests. Like
// runtime it imports only the standard library.
package engine
