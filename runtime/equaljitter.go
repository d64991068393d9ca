package runtime

import "time"

// aliyunBaseDelay is the base of equal-jitter backoff (retry-behavior.md §5).
const aliyunBaseDelay = 100 * time.Millisecond

// equalJitter returns the equal-jitter backoff of retry-behavior.md §5:
// ceil = min(maxDelay, base × 2^k), delay = ceil/2 + r × ceil/2, where k is
// the number of retries already made + 1 (the first retry has k = 1) and r is
// the one random draw in [0,1] (values outside are clamped; NaN counts as 0).
// With r = 1 the delay is exactly ceil. The arithmetic is in integer
// nanoseconds and saturates: the result is in [0, maxDelay] for any k.
func equalJitter(base, maxDelay time.Duration, k int, r float64) time.Duration {
	ceil := cappedExponential(base, maxDelay, k)
	half := ceil / 2
	return half + scale(ceil-half, r)
}

// cappedExponential returns min(maxBackoff, base × 2^n) without overflow: n
// below 0 counts as 0, and a non-positive base or maxBackoff gives 0.
func cappedExponential(base, maxBackoff time.Duration, n int) time.Duration {
	if base <= 0 || maxBackoff <= 0 {
		return 0
	}
	n = max(n, 0)
	if n >= 63 || base > maxBackoff>>n {
		return maxBackoff
	}
	return base << n
}

// scale returns r × d for d ≥ 0, with r clamped to [0,1] (NaN counts as 0),
// never above d: a float64 product can round past d (and past int64).
func scale(d time.Duration, r float64) time.Duration {
	if !(r > 0) {
		return 0
	}
	f := r * float64(d)
	if r >= 1 || f >= float64(d) {
		return d
	}
	return time.Duration(f)
}
