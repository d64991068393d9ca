package runtime

import (
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// TestResolvePolicyEverySettingAtEveryLevel lists every setting of the
// policy at every level that can set it, from the global default up; each
// row sets the setting at its level and at every lower level, so the row
// passes only when its level wins (retry-behavior.md §2, §5, §8, §9).
func TestResolvePolicyEverySettingAtEveryLevel(t *testing.T) {
	type levels struct {
		svc          Service
		op           Operation
		client, call Options
		env          map[string]string
	}
	tcSvc := &ThrottleControl{MaxDelay: 30 * time.Second, RetryStatuses: []int{503}}
	tcOpt := &ThrottleControl{MaxDelay: 5 * time.Second, RetryStatuses: []int{500}}
	rs := func(n int) []StatusRange { return []StatusRange{{n, n}} }
	type row struct {
		setting, level string
		set            func(*levels)
		get            func(*Policy) any
		want           any
	}
	mode := func(p *Policy) any { return p.Mode.Value }
	maxAttempts := func(p *Policy) any { return p.MaxAttempts.Value }
	transient := func(p *Policy) any { return p.Params.TransientBaseDelay }
	throttling := func(p *Policy) any { return p.Params.ThrottlingBaseDelay }
	maxBackoff := func(p *Policy) any { return p.Params.MaxBackoff }
	jitter := func(p *Policy) any { return p.Params.Jitter }
	exponent := func(p *Policy) any { return p.Params.BackoffExponent }
	maxServerDelay := func(p *Policy) any { return p.MaxServerDelay }
	tc := func(p *Policy) any { return p.ThrottleControl }
	throttleMax := func(p *Policy) any { return p.ThrottleMaxDelay }
	retryStatusesAliyun := func(p *Policy) any { return p.ThrottleRetryStatuses }
	maxWindow := func(p *Policy) any { return p.MaxThrottleWindow }
	retrySafe := func(p *Policy) any { return p.RetrySafe }
	longPolling := func(p *Policy) any { return p.LongPolling }
	maxElapsed := func(p *Policy) any { return p.MaxElapsed }
	retryStatuses := func(p *Policy) any { return p.RetryStatuses }
	connNotRetried := func(p *Policy) any { return p.ConnectionErrorsNotRetried }
	bare429 := func(p *Policy) any { return p.Bare429NotRetried }
	code := func(p *Policy) any { c, _ := p.codeClass("X"); return c }

	// Each level's setter also applies the levels below it.
	svcMode := func(l *levels) { l.svc.DefaultMode = ModeLegacy }
	envMode := func(l *levels) { svcMode(l); l.env["T_RETRY_MODE"] = "adaptive" }
	clientMode := func(l *levels) { envMode(l); l.client.RetryMode = ModeAliyun }
	callMode := func(l *levels) { clientMode(l); l.call.RetryMode = ModeStandard }
	svcMax := func(l *levels) { l.svc.Defaults.MaxAttempts = 6 }
	perModeMax := func(l *levels) { svcMax(l); l.svc.PerMode = map[Mode]ModeDefaults{ModeStandard: {MaxAttempts: 7}} }
	opMax := func(l *levels) { perModeMax(l); l.op.Backoff.MaxAttempts = 8 }
	envMax := func(l *levels) { opMax(l); l.env["T_MAX_ATTEMPTS"] = "9" }
	clientMax := func(l *levels) { envMax(l); l.client.MaxAttempts = 10 }
	callMax := func(l *levels) { clientMax(l); l.call.MaxAttempts = 11 }
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	svcDelay := func(l *levels) {
		l.svc.Defaults = ModeDefaults{TransientBaseDelay: ms(1), ThrottlingBaseDelay: ms(2), MaxBackoff: ms(3), Jitter: JitterEqual, BackoffExponent: 1.5}
	}
	perModeDelay := func(l *levels) {
		svcDelay(l)
		l.svc.PerMode = map[Mode]ModeDefaults{ModeStandard: {TransientBaseDelay: ms(11), ThrottlingBaseDelay: ms(12), MaxBackoff: ms(13), Jitter: JitterNone, BackoffExponent: 3}}
	}
	opDelay := func(l *levels) {
		perModeDelay(l)
		l.op.Backoff = ModeDefaults{TransientBaseDelay: ms(21), ThrottlingBaseDelay: ms(22), MaxBackoff: ms(23), Jitter: JitterFull, BackoffExponent: 4}
	}
	callBackoff := func(l *levels) { opDelay(l); l.client.MaxBackoff = ms(33); l.call.MaxBackoff = ms(43) }
	aliyun := func(l *levels) { l.svc.DefaultMode = ModeAliyun }
	aliyunSvcTC := func(l *levels) { aliyun(l); l.svc.ThrottleControl = tcSvc }
	aliyunSvcMax := func(l *levels) { aliyunSvcTC(l); l.svc.Defaults.MaxBackoff = ms(50) }
	aliyunClientTC := func(l *levels) { aliyunSvcMax(l); l.client.ThrottleControl = tcOpt }
	aliyunCallMax := func(l *levels) { aliyunClientTC(l); l.call.MaxBackoff = ms(60) }
	svcTC := func(l *levels) { l.svc.ThrottleControl = tcSvc }
	clientTC := func(l *levels) { svcTC(l); l.client.ThrottleControl = tcOpt }
	disabledTC := func(l *levels) { clientTC(l); l.client.DisableThrottleControl = true }
	svcCode := func(l *levels) { l.svc.ThrottlingCodes = []string{"X"} }
	opCode := func(l *levels) { svcCode(l); l.op.TransientCodes = []string{"X"} }
	callCode := func(l *levels) { opCode(l); l.call.NonRetryableCodes = []string{"X"} }

	rows := []row{
		{"retry mode", "global default", nil, mode, ModeStandard},
		{"retry mode", "service", svcMode, mode, ModeLegacy},
		{"retry mode", "environment", envMode, mode, ModeAdaptive},
		{"retry mode", "client option", clientMode, mode, ModeAliyun},
		{"retry mode", "call option", callMode, mode, ModeStandard},
		{"max attempts", "global default", nil, maxAttempts, 3},
		{"max attempts", "service", svcMax, maxAttempts, 6},
		{"max attempts", "service, mode", perModeMax, maxAttempts, 7},
		{"max attempts", "operation", opMax, maxAttempts, 8},
		{"max attempts", "environment", envMax, maxAttempts, 9},
		{"max attempts", "client option", clientMax, maxAttempts, 10},
		{"max attempts", "call option", callMax, maxAttempts, 11},
		{"transient base delay", "global default", nil, transient, 50 * time.Millisecond},
		{"transient base delay", "service", svcDelay, transient, ms(1)},
		{"transient base delay", "service, mode", perModeDelay, transient, ms(11)},
		{"transient base delay", "operation", opDelay, transient, ms(21)},
		{"throttling base delay", "global default", nil, throttling, time.Second},
		{"throttling base delay", "service", svcDelay, throttling, ms(2)},
		{"throttling base delay", "service, mode", perModeDelay, throttling, ms(12)},
		{"throttling base delay", "operation", opDelay, throttling, ms(22)},
		{"max backoff", "global default", nil, maxBackoff, 20 * time.Second},
		{"max backoff", "service", svcDelay, maxBackoff, ms(3)},
		{"max backoff", "service, mode", perModeDelay, maxBackoff, ms(13)},
		{"max backoff", "operation", opDelay, maxBackoff, ms(23)},
		{"max backoff", "call option", callBackoff, maxBackoff, ms(43)},
		{"max backoff (aliyun)", "global default", aliyun, maxBackoff, 20 * time.Second},
		{"max backoff (aliyun)", "service throttle control", aliyunSvcTC, maxBackoff, 30 * time.Second},
		{"max backoff (aliyun)", "service", aliyunSvcMax, maxBackoff, ms(50)},
		{"max backoff (aliyun)", "client throttle control", aliyunClientTC, maxBackoff, 5 * time.Second},
		{"max backoff (aliyun)", "call option", aliyunCallMax, maxBackoff, ms(60)},
		{"jitter", "global default", nil, jitter, JitterFull},
		{"jitter", "service", svcDelay, jitter, JitterEqual},
		{"jitter", "service, mode", perModeDelay, jitter, JitterNone},
		{"jitter", "operation", opDelay, jitter, JitterFull},
		{"backoff exponent", "global default", nil, exponent, 0.0},
		{"backoff exponent", "service", svcDelay, exponent, 1.5},
		{"backoff exponent", "service, mode", perModeDelay, exponent, 3.0},
		{"backoff exponent", "operation", opDelay, exponent, 4.0},
		{"max server delay", "global default", nil, maxServerDelay, engine.DefaultMaxServerDelay},
		{"max server delay", "call option", func(l *levels) { l.client.MaxServerDelay = ms(1); l.call.MaxServerDelay = ms(2) }, maxServerDelay, ms(2)},
		{"throttle control", "global default", nil, tc, (*ThrottleControl)(nil)},
		{"throttle control", "service", svcTC, tc, tcSvc},
		{"throttle control", "client option", clientTC, tc, tcOpt},
		{"throttle control", "client option: disabled", disabledTC, tc, (*ThrottleControl)(nil)},
		{"throttle control", "call option: not read", func(l *levels) { svcTC(l); l.call.DisableThrottleControl = true }, tc, tcSvc},
		{"throttle max delay", "global default", svcTC, throttleMax, 30 * time.Second},
		{"throttle max delay", "default", func(l *levels) { l.svc.ThrottleControl = &ThrottleControl{} }, throttleMax, engine.DefaultThrottleMaxDelay},
		{"throttle max delay", "client option", clientTC, throttleMax, 5 * time.Second},
		{"throttle max delay (aliyun)", "client option, no spec control", func(l *levels) { aliyun(l); l.client.ThrottleControl = &ThrottleControl{} }, throttleMax, engine.DefaultThrottleMaxDelay},
		{"throttle max delay (aliyun)", "client option", func(l *levels) { aliyun(l); l.client.ThrottleControl = tcOpt }, throttleMax, 5 * time.Second},
		{"throttle max delay (aliyun)", "call option", aliyunCallMax, throttleMax, ms(60)},
		{"aliyun retry statuses", "global default", nil, retryStatusesAliyun, aliyunRetryStatuses},
		{"aliyun retry statuses", "service", svcTC, retryStatusesAliyun, []int{503}},
		{"aliyun retry statuses", "client option", clientTC, retryStatusesAliyun, []int{500}},
		{"max throttle window", "global default", nil, maxWindow, engine.DefaultMaxThrottleWindow},
		{"max throttle window", "client option", func(l *levels) { l.client.MaxThrottleWindow = time.Minute }, maxWindow, time.Minute},
		{"max throttle window", "call option: not read", func(l *levels) { l.call.MaxThrottleWindow = time.Minute }, maxWindow, engine.DefaultMaxThrottleWindow},
		{"retry-safe", "global default", nil, retrySafe, false},
		{"retry-safe", "service", func(l *levels) { l.svc.RetrySafe = true }, retrySafe, true},
		{"retry-safe", "operation", func(l *levels) { l.op.RetrySafe = true }, retrySafe, true},
		{"long polling", "operation", func(l *levels) { l.op.LongPolling = true }, longPolling, true},
		{"retry deadline", "global default", nil, maxElapsed, time.Duration(0)},
		{"retry deadline", "service", func(l *levels) { l.svc.MaxElapsed = time.Minute }, maxElapsed, time.Minute},
		{"retry deadline", "operation", func(l *levels) { l.svc.MaxElapsed = time.Minute; l.op.MaxElapsed = time.Second }, maxElapsed, time.Second},
		{"retry statuses", "global default", nil, retryStatuses, []StatusRange(nil)},
		{"retry statuses", "service", func(l *levels) { l.svc.RetryStatuses = rs(503) }, retryStatuses, rs(503)},
		{"retry statuses", "operation", func(l *levels) { l.svc.RetryStatuses = rs(503); l.op.RetryStatuses = rs(429) }, retryStatuses, rs(429)},
		{"connection errors not retried", "service", func(l *levels) { l.svc.ConnectionErrorsNotRetried = true }, connNotRetried, true},
		{"connection errors not retried", "operation", func(l *levels) { l.op.ConnectionErrorsNotRetried = true }, connNotRetried, true},
		{"bare 429 not retried", "service", func(l *levels) { l.svc.Bare429NotRetried = true }, bare429, true},
		{"error code class", "global default", nil, code, engine.ClassSuccess},
		{"error code class", "service", svcCode, code, engine.ClassThrottling},
		{"error code class", "operation", opCode, code, engine.ClassTransient},
		{"error code class", "call option", callCode, code, engine.ClassNonRetryable},
	}
	for _, r := range rows {
		t.Run(r.setting+" at "+r.level, func(t *testing.T) {
			l := levels{env: map[string]string{}}
			l.svc.EnvPrefix = "T"
			l.op.Name = "Op"
			if r.set != nil {
				r.set(&l)
			}
			env := Env{
				Lookup:  func(k string) (string, bool) { v, ok := l.env[k]; return v, ok },
				HomeDir: func() (string, error) { return t.TempDir(), nil },
			}
			p, err := ResolvePolicy(&l.svc, &l.op, &l.client, &l.call, env)
			require.NoError(t, err)
			require.Equal(t, r.want, r.get(&p))
			require.Equal(t, p.MaxAttempts.Value, p.Params.MaxAttempts, "Params.MaxAttempts is the setting")

		})
	}
}

// TestClientCallResolvesThePolicy: a client's call runs with the policy
// ResolvePolicy gives for the same levels: Client.Do resolves it the same
// way, once per call.
func TestClientCallResolvesThePolicy(t *testing.T) {
	svc := &Service{Name: "svc", DefaultMode: ModeLegacy, Defaults: ModeDefaults{MaxBackoff: time.Second}, RetryStatuses: []StatusRange{{503, 503}}}
	op := &Operation{Name: "Op", Backoff: ModeDefaults{MaxAttempts: 7, TransientBaseDelay: time.Millisecond}, MaxElapsed: time.Minute}
	client := Options{MaxBackoff: 2 * time.Second, ThrottleControl: &ThrottleControl{MaxDelay: time.Second}}
	for _, call := range []*Options{nil, {RetryMode: ModeStandard}, {MaxAttempts: 2, MaxServerDelay: time.Second}} {
		c, err := NewClient(svc, "http://svc.test", client)
		require.NoError(t, err)
		cl, err := c.newCall(op, call)
		require.NoError(t, err)
		want, err := ResolvePolicy(svc, op, &client, call, Env{})
		require.NoError(t, err)
		require.Equal(t, want, cl.Policy())
	}
}
