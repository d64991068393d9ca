package runtime

import "time"

// aliyunBaseDelay is the base of equal-jitter backoff (retry-behavior.md §5).
const aliyunBaseDelay = 100 * time.Millisecond

// equalJitter returns the equal-jitter backoff of retry-behavior.md §5:
// ceil = min(maxDelay, base × 2^k), delay = ceil/2 + r × ceil/2, where k is
// the number of retries already made + 1 (the first retry has k = 1) and r is
// the one random draw in [0,1] (values outside are clamped; NaN counts as 0).
// With r = 1 the delay is exactly ceil. The arithmetic is in integer
// nanoseconds and saturates (backoffCeiling, scale): the result is in
// [0, maxDelay] for any k.
//
// exponent replaces the 2 of base × 2^k (0 means 2; backoffCeilingExp). The
// attempt loop calls it (callMachine.backoff).
func equalJitter(base, maxDelay time.Duration, exponent float64, k int, r float64) time.Duration {
	return equalJitterOf(backoffCeilingExp(base, maxDelay, exponent, k), r)
}

// equalJitterOf is equal jitter on a computed ceiling: ceil/2 + r × ceil/2.
func equalJitterOf(ceil time.Duration, r float64) time.Duration {
	half := ceil / 2
	return half + scale(ceil-half, r)
}
