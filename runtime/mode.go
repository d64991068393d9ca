package runtime

import "time"

// Mode is a retry mode (retry-behavior.md §1).
type Mode string

// The retry modes. The zero Mode means "not set here": the next level of
// configuration decides (retry-behavior.md §2).
const (
	// ModeStandard: full-jitter backoff, error-class base delays, retry quota.
	ModeStandard Mode = "standard"
	// ModeAdaptive: standard plus the CUBIC client-side rate limiter (§6).
	ModeAdaptive Mode = "adaptive"
	// ModeLegacy: botocore's legacy table: no quota, 5 max attempts,
	// delay = rand[0,1) × 1 s × 2^n unless the service declares otherwise.
	ModeLegacy Mode = "legacy"
	// ModeAliyun: the Alibaba Cloud throttling policy (§8): equal jitter,
	// max retries, max delay, no quota.
	ModeAliyun Mode = "aliyun"
)

// Jitter selects how a computed backoff ceiling becomes a delay.
type Jitter uint8

const (
	// JitterDefault uses the mode's own jitter: full jitter for standard,
	// adaptive and legacy, equal jitter for aliyun.
	JitterDefault Jitter = iota
	// JitterFull: delay = rand[0,1) × ceiling.
	JitterFull
	// JitterEqual: delay = ceiling/2 + rand[0,1] × ceiling/2.
	JitterEqual
	// JitterNone: delay = ceiling exactly (DynamoDB-like legacy mode).
	JitterNone
)

// Modes returns every retry mode, in the order of retry-behavior.md §1:
// standard, adaptive, legacy, aliyun. The result is a new slice.
func Modes() []Mode {
	return append([]Mode(nil), modes[:]...)
}

// Jitters returns every jitter a service may declare (JitterDefault aside):
// full, equal, none. The result is a new slice.
func Jitters() []Jitter {
	return []Jitter{JitterFull, JitterEqual, JitterNone}
}

// String returns the jitter's name as x-retry spells it: "full", "equal" or
// "none"; "default" for JitterDefault and unknown values.
func (j Jitter) String() string {
	switch j {
	case JitterFull:
		return "full"
	case JitterEqual:
		return "equal"
	case JitterNone:
		return "none"
	}
	return "default"
}

// ModeDefaults are a service's defaults for one retry mode, as declared by
// the spec's x-retry extension. A zero field means "use the global default
// for the mode" (retry-behavior.md §1, §5).
type ModeDefaults struct {
	// MaxAttempts counts the first attempt: 3 = one request + 2 retries.
	MaxAttempts int
	// TransientBaseDelay is the base of the backoff after a transient
	// error (global default 50 ms; legacy 1 s).
	TransientBaseDelay time.Duration
	// ThrottlingBaseDelay is the base after a throttling error (global
	// default 1,000 ms; legacy 1 s).
	ThrottlingBaseDelay time.Duration
	// MaxBackoff caps base × 2^n before jitter (default 20 s).
	MaxBackoff time.Duration
	// Jitter overrides the mode's jitter (JitterNone for DynamoDB legacy).
	Jitter Jitter
	// BackoffExponent replaces the 2 of base × 2^n (x-retry
	// backoffExponent, x-speakeasy-retries exponent: 1.5 gives base ×
	// 1.5^n); 0 means 2. Values below 1 count as 1.
	BackoffExponent float64
}

// ModeParams are the retry parameters of the resolved mode that the retry
// loop uses ([Policy.Params]).
type ModeParams struct {
	// Mode is the resolved retry mode.
	Mode Mode
	// MaxAttempts counts the first attempt (Settings.MaxAttempts).
	MaxAttempts int
	// TransientBaseDelay and ThrottlingBaseDelay are the backoff bases
	// after a transient and a throttling error.
	TransientBaseDelay, ThrottlingBaseDelay time.Duration
	// MaxBackoff caps base × 2^n before jitter (aliyun: the max delay).
	MaxBackoff time.Duration
	// Jitter is JitterFull, JitterEqual or JitterNone, never JitterDefault.
	Jitter Jitter
	// BackoffExponent is the base of the exponential backoff (0: 2).
	BackoffExponent float64
	// UsesQuota: retries are paid from the retry quota (§5).
	UsesQuota bool
	// UsesLimiter: attempts take send tokens from the client-side rate
	// limiter (§6).
	UsesLimiter bool
}

// override replaces p's delays and jitter with d's set ones.
func (p *ModeParams) override(d ModeDefaults) {
	if d.TransientBaseDelay > 0 {
		p.TransientBaseDelay = d.TransientBaseDelay
	}
	if d.ThrottlingBaseDelay > 0 {
		p.ThrottlingBaseDelay = d.ThrottlingBaseDelay
	}
	if d.MaxBackoff > 0 {
		p.MaxBackoff = d.MaxBackoff
	}
	if d.Jitter != JitterDefault {
		p.Jitter = d.Jitter
	}
	if d.BackoffExponent > 0 {
		p.BackoffExponent = d.BackoffExponent
	}
}

// globalParams returns the global defaults of mode, every number from
// retry-behavior.md. An unknown mode gets standard's.
func globalParams(mode Mode) ModeParams {
	switch mode {
	case ModeLegacy:
		// §1: botocore's legacy table: max attempts 5,
		// delay = rand[0,1) × 1 s × 2^n for every retryable error, no
		// quota; capped at 20 s like the other modes so that no delay
		// overflows (§1: "never let a delay overflow").
		return ModeParams{Mode: mode, MaxAttempts: 5,
			TransientBaseDelay: time.Second, ThrottlingBaseDelay: time.Second,
			MaxBackoff: 20 * time.Second, Jitter: JitterFull}
	case ModeAliyun:
		// §8: max retries 3 (max attempts 4), max delay 20 s; §5: equal
		// jitter with base 100 ms; §1: no quota.
		return ModeParams{Mode: mode, MaxAttempts: 4,
			TransientBaseDelay: 100 * time.Millisecond, ThrottlingBaseDelay: 100 * time.Millisecond,
			MaxBackoff: 20 * time.Second, Jitter: JitterEqual}
	case ModeAdaptive:
		// §1: standard plus the client-side rate limiter (§6).
		p := globalParams(ModeStandard)
		p.Mode, p.UsesLimiter = mode, true
		return p
	default:
		// §2: max attempts 3; §5: full jitter, base 50 ms (transient) or
		// 1,000 ms (throttling), max backoff 20 s, retry quota.
		return ModeParams{Mode: ModeStandard, MaxAttempts: 3,
			TransientBaseDelay: 50 * time.Millisecond, ThrottlingBaseDelay: time.Second,
			MaxBackoff: 20 * time.Second, Jitter: JitterFull, UsesQuota: true}
	}
}
