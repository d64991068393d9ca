package runtime

import (
	"math"
	"time"
)

// backoffCeiling returns min(maxBackoff, base × 2^exp) in integer
// nanoseconds, saturating: never overflows and never negative, whatever exp
// is (retry-behavior.md §5: "compute it in integer nanoseconds or with
// saturation").
func backoffCeiling(base, maxBackoff time.Duration, exp int) time.Duration {
	if base <= 0 || maxBackoff <= 0 {
		return 0
	}
	if exp < 0 {
		exp = 0
	}
	// base << exp > maxBackoff exactly when base > maxBackoff >> exp;
	// shifting the cap right never overflows.
	if exp >= 63 || base > maxBackoff>>uint(exp) {
		return maxBackoff
	}
	return base << uint(exp)
}

// scale returns ceiling × r for r in [0,1], rounded down, clamped to
// [0, ceiling].
func scale(ceiling time.Duration, r float64) time.Duration {
	if !(r > 0) { // also catches NaN
		return 0
	}
	if r >= 1 {
		return ceiling
	}
	d := time.Duration(math.Floor(float64(ceiling) * r))
	return min(max(d, 0), ceiling)
}

// fullJitter is the standard-mode backoff before retry n (n from 0):
// rand[0,1) × min(maxBackoff, base × exponent^n) (retry-behavior.md §5; the
// cap is applied before the jitter; exponent 0 means 2). The attempt loop
// calls it (callMachine.backoff).
func fullJitter(base, maxBackoff time.Duration, exponent float64, n int, r float64) time.Duration {
	return scale(backoffCeilingExp(base, maxBackoff, exponent, n), r)
}

// backoffCeilingExp is backoffCeiling with a backoff exponent other than 2:
// min(maxBackoff, base × exponent^exp) (x-retry backoffExponent, the
// exponent of x-speakeasy-retries). An exponent of 0 (not set) or 2 is
// backoffCeiling's exact integer rule; any other is computed in float64 and
// saturates: a product at or above maxBackoff, +Inf or NaN gives maxBackoff,
// and the result is never negative. An exponent below 1 counts as 1 (a
// constant backoff of base).
func backoffCeilingExp(base, maxBackoff time.Duration, exponent float64, exp int) time.Duration {
	if exponent == 0 || exponent == 2 {
		return backoffCeiling(base, maxBackoff, exp)
	}
	if base <= 0 || maxBackoff <= 0 {
		return 0
	}
	if exp < 0 {
		exp = 0
	}
	exponent = max(exponent, 1)
	f := float64(base) * math.Pow(exponent, float64(exp))
	if !(f < float64(maxBackoff)) { // also catches NaN and +Inf
		return maxBackoff
	}
	return time.Duration(f)
}
