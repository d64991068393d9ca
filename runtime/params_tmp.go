package runtime

import "time"

// modeParams are the resolved numbers of one call's retry mode.
// TEMPORARY: replaced by config.go's resolution at merge.
type modeParams struct {
	Mode                Mode
	MaxAttempts         int
	TransientBaseDelay  time.Duration
	ThrottlingBaseDelay time.Duration
	MaxBackoff          time.Duration
	Jitter              Jitter
	UsesQuota           bool
	UsesLimiter         bool
}

func (c *Client) params(opts *Options) (modeParams, error) {
	mode := opts.RetryMode
	if mode == "" {
		mode = c.svc.DefaultMode
	}
	if mode == "" {
		mode = ModeStandard
	}
	p := modeParams{Mode: mode, MaxAttempts: 3, TransientBaseDelay: 50 * time.Millisecond, ThrottlingBaseDelay: time.Second, MaxBackoff: 20 * time.Second, Jitter: JitterFull, UsesQuota: true, UsesLimiter: mode == ModeAdaptive}
	if d := c.svc.Defaults; true {
		if d.MaxAttempts > 0 {
			p.MaxAttempts = d.MaxAttempts
		}
		if d.TransientBaseDelay > 0 {
			p.TransientBaseDelay = d.TransientBaseDelay
		}
		if d.ThrottlingBaseDelay > 0 {
			p.ThrottlingBaseDelay = d.ThrottlingBaseDelay
		}
	}
	if opts.MaxAttempts > 0 {
		p.MaxAttempts = opts.MaxAttempts
	}
	if opts.MaxBackoff > 0 {
		p.MaxBackoff = opts.MaxBackoff
	}
	return p, nil
}
