package runtime

import "github.com/retrygen/retrygen/runtime/engine"

// retryCosts are one client's retry costs and success increment (§5),
// DefaultRetryQuotaCapacity's siblings, possibly changed by Options.
type retryCosts struct {
	transient, throttling, timeout, noRetryIncrement int
}

// newRetryCosts returns the costs of q, the client's resolved quota
// settings (ResolveQuotaSettings: the options', else the defaults of §5).
func newRetryCosts(q engine.QuotaSettings) retryCosts {
	return retryCosts{
		transient:        q.CostTransient.Value,
		throttling:       q.CostThrottling.Value,
		timeout:          q.CostTimeout.Value,
		noRetryIncrement: q.NoRetryIncrement.Value,
	}
}

// retryCost is the retry cost of a retry after err, of class c: the
// throttling cost for throttling, the timeout cost for a timed-out attempt,
// the transient cost for everything else retried (§5).
func (k retryCosts) retryCost(c engine.Class, err error) int {
	switch {
	case c == engine.ClassThrottling:
		return k.throttling
	case isTimeout(err):
		return k.timeout
	}
	return k.transient
}

// storeFault returns the first fault reported by the client's shared stores
// (StoreFaultReporter), or nil.
func (c *Client) storeFault() error {
	for _, f := range c.faults {
		if err := f.StoreFault(); err != nil {
			return err
		}
	}
	return nil
}

// ResolveQuotaSettings returns the retry quota settings a client built
// with opts uses (nil opts: the defaults). It is what NewClient reads and
// what `retrygen explain` prints.
func ResolveQuotaSettings(opts *Options) engine.QuotaSettings {
	if opts == nil {
		opts = &Options{}
	}
	pick := func(p *int, field, desc string, def int) engine.Setting[int] {
		if p == nil {
			return engine.Setting[int]{Value: def, Source: engine.Source{Level: engine.LevelGlobalDefault, Name: desc}}
		}
		return engine.Setting[int]{Value: max(*p, 0), Source: engine.Source{Level: engine.LevelClientOption, Name: field}}
	}
	return engine.QuotaSettings{
		Capacity:         pick(opts.RetryQuotaCapacity, "RetryQuotaCapacity", "retry quota capacity", engine.DefaultRetryQuotaCapacity),
		CostTransient:    pick(opts.RetryCostTransient, "RetryCostTransient", "retry cost of a transient error", engine.RetryCostTransient),
		CostThrottling:   pick(opts.RetryCostThrottling, "RetryCostThrottling", "retry cost of a throttling error", engine.RetryCostThrottling),
		CostTimeout:      pick(opts.RetryCostTimeout, "RetryCostTimeout", "retry cost of a timeout", engine.RetryCostTimeout),
		NoRetryIncrement: pick(opts.NoRetryIncrement, "NoRetryIncrement", "first-attempt success increment", engine.NoRetryIncrement),
	}
}
