package main

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/retrygen/retrygen/runtime"
)

// Plot file names, linked from the report.
const (
	serverLoadPlot = "server-load.svg"
	goodputPlot    = "goodput.svg"
	quotaPlot      = "retry-quota.svg"
	// fleetBudgetPlot is drawn when a run shared a fleet retry budget.
	fleetBudgetPlot = "fleet-budget.svg"
)

// recoveryErrorRate is the largest share of failed calls of a time bucket
// that counts as recovered.
const recoveryErrorRate = 0.01

// writeReport renders report.md: the scenario, then one table per phase with
// a row per mode, then the outages' drain and recovery times.
func writeReport(sc *Scenario, seed uint64, runs []*runStats) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# retrygen-sim: %s\n\n", sc.Name)
	if d := strings.TrimSpace(sc.Description); d != "" {
		fmt.Fprintf(&b, "%s\n\n", d)
	}
	fmt.Fprintf(&b, "Seed %d. Virtual time; every retry decision, retry quota, CUBIC rate limiter and throttle window is the runtime's own code.\n\n", seed)
	b.WriteString("**Clients**\n\n")
	for _, g := range sc.Clients {
		load := fmt.Sprintf("%s calls/s each, Poisson arrivals", num(g.Rate))
		if cl := g.ClosedLoop; cl != nil {
			load = fmt.Sprintf("closed loop, %d callers each, think time %s ms (mean)", cl.Concurrency, num(cl.ThinkMs))
		}
		attempts := "the mode's default max attempts"
		if g.MaxAttempts > 0 {
			attempts = fmt.Sprintf("max attempts %d", g.MaxAttempts)
		}
		timeout := "no deadline"
		if g.TimeoutMs > 0 {
			timeout = fmt.Sprintf("deadline %d ms", g.TimeoutMs)
		}
		user := ""
		if g.Spec != "" {
			user = ", x-retry of " + strings.Join(append([]string{g.Spec}, g.Overlays...), " + ")
		}
		if g.User != "" {
			user = fmt.Sprintf(", all calling as user %q", g.User)
		}
		if g.FleetRetryBudget > 0 {
			user += fmt.Sprintf(", sharing a fleet retry budget of %d tokens in the shared runs", g.FleetRetryBudget)
		}
		fmt.Fprintf(&b, "- %s: %d clients, %s, %s (no retry: 1), %s%s\n", g.Name, g.Count, load, attempts, timeout, user)
	}
	s := sc.Server
	fmt.Fprintf(&b, "\n**Server**: capacity %s req/s, burst %d, queue %d, latency %s ms, overload answered with %s",
		num(s.Capacity), s.Burst, s.Queue, num(s.LatencyMs), failureName(s.Overload, s.RetryAfterMs))
	if u := s.UserLimit; u != nil {
		code := "no error code"
		if u.Code != "" {
			code = "error code " + u.Code
		}
		fmt.Fprintf(&b, "; Alibaba-style limit of %d requests per %d ms fixed window per user (%s dimension; HTTP 400, %s, Remain:0 and TimeLeft)", u.Limit, u.WindowMs, u.Dimension, code)
	}
	if len(sc.Sharing) > 1 || sc.Sharing[0] == sharingShared {
		fmt.Fprintf(&b, "\n\n**Sharing**: each mode run with %s windows (per-process: each client its own throttle-window store and no fleet budget; shared: one in-memory window store and the fleet retry budget per client group, as a fleet-wide store would give every process)", strings.Join(sc.Sharing, " and "))
	}
	b.WriteString("\n\n**Max attempts** (first client group, as resolved):")
	for i, r := range runs {
		if r.sharing != runs[0].sharing {
			break
		}
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s %s %d", sep, modeName(r.mode), r.maxAttempts)
	}
	b.WriteString("\n\n**Phases**\n\n| phase | kind | from (s) | to (s) | condition |\n|---|---|---:|---:|---|\n")
	for i, p := range sc.Phases {
		ps := runs[0].phases[i]
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", p.Name, p.Kind, num(ps.start.Seconds()), num(ps.end.Seconds()), condition(&p, &s))
	}
	b.WriteString("\nColumns: offered = calls started per second; server = requests arriving at the server per second " +
		"(÷ capacity in the next column); amplification = server requests ÷ calls started in the phase; " +
		"attempts/call = attempts made by the calls started in the phase, whenever made; goodput = calls that ended in success per second; " +
		"errors = calls that ended in failure ÷ calls that ended; throttled = throttling responses ÷ responses; " +
		"p50/p99 = latency of the calls that ended in the phase; quota = mean retry quota balance (tokens, of 500); " +
		"adaptive rate = sum of the clients' CUBIC fill rates, a limiter shared by several clients counted once (tokens/s, adaptive mode once throttled).\n")
	for i, p := range sc.Phases {
		fmt.Fprintf(&b, "\n## Phase %d: %s (%s)\n\n", i+1, p.Name, p.Kind)
		b.WriteString("| mode | offered/s | server/s | ÷ capacity | amplification | attempts/call | goodput/s | errors | throttled | p50 | p99 | quota | adaptive rate |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, r := range runs {
			ps := &r.phases[i]
			secs := (ps.end - ps.start).Seconds()
			ended := ps.succeeded + ps.failed
			capacity := s.Capacity * p.CapacityFactor
			rate := "–"
			if r.mode == string(runtime.ModeAdaptive) {
				rate = fmt.Sprintf("%.1f", mean(ps.sendRateSum, ps.samples))
			}
			fmt.Fprintf(&b, "| %s | %.1f | %.1f | %s | %s | %s | %.1f | %s | %s | %s | %s | %.0f | %s |\n",
				r.label, float64(ps.started)/secs, float64(ps.serverReq)/secs,
				ratio(float64(ps.serverReq)/secs, capacity), ratio(float64(ps.serverReq), float64(ps.started)),
				ratio(float64(ps.startedAttempts), float64(ps.startedEnded)),
				float64(ps.succeeded)/secs, percent(ps.failed, ended), percent(ps.throttled, ps.responses),
				dur(ps.latency.quantile(0.5)), dur(ps.latency.quantile(0.99)),
				mean(ps.quotaSum, ps.samples), rate)
		}
	}
	for i, p := range sc.Phases {
		if p.Kind != kindOutage {
			continue
		}
		fmt.Fprintf(&b, "\n## Outage %q: retry quota and recovery\n\n", p.Name)
		b.WriteString("Quota drained = every client's retry quota below the retry cost of the outage's failures (14 tokens for a transient error, 5 for throttling); " +
			"attempts/call after = attempts of the calls started after that, until the outage ends; " +
			fmt.Sprintf("recovered = end of the first %s bucket after the outage in which at most %.0f %% of the calls that ended failed.\n\n", dur(runs[0].bucket), recoveryErrorRate*100))
		b.WriteString("Second half = server requests ÷ calls started in the outage's second half (time buckets), the steady state.\n\n")
		b.WriteString("Retries = attempts after the first made by the calls started in the outage.\n\n")
		b.WriteString("| mode | retries | quota drained after | attempts/call after | amplification, second half | recovered after |\n|---|---:|---:|---:|---:|---:|\n")
		for _, r := range runs {
			ps := &r.phases[i]
			drained, after := "never (no quota)", "–"
			if ps.drainedAt >= 0 {
				drained = dur(ps.drainedAt - ps.start)
				after = ratio(float64(ps.drainedAttempt), float64(ps.drainedStarted))
			} else if r.mode == modeNone {
				drained = "no retries"
			} else if usesQuota(r.mode) {
				drained = "not drained"
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s |\n", r.label, ps.startedRetries, drained, after, secondHalf(r, ps), recovery(r, ps.end))
		}
	}
	fmt.Fprintf(&b, "\n## Plots\n\nLines that coincide are drawn over each other: standard and adaptive mode are the same until a throttling error enables the rate limiter.\n\n![server load](%s)\n\n![goodput](%s)\n\n![retry quota](%s)\n", serverLoadPlot, goodputPlot, quotaPlot)
	if hasFleetBudget(runs) {
		fmt.Fprintf(&b, "\n![fleet retry budget](%s)\n", fleetBudgetPlot)
	}
	return b.Bytes()
}

// secondHalf is the amplification over the time buckets of the second half
// of a phase: server requests ÷ calls started.
func secondHalf(r *runStats, ps *phaseStats) string {
	from := int((ps.start + (ps.end-ps.start)/2 + r.bucket - 1) / r.bucket)
	to := int(ps.end / r.bucket)
	var req, calls int64
	for b := from; b < to && b < len(r.offered); b++ {
		req += r.serverReq[b]
		calls += r.offered[b]
	}
	return ratio(float64(req), float64(calls))
}

// recovery is the time from end until the end of the first bucket in which
// at most 1 % of the calls that ended failed.
func recovery(r *runStats, end time.Duration) string {
	for b := int(end / r.bucket); b < len(r.offered); b++ {
		ended := r.succeeded[b] + r.failed[b]
		if ended > 0 && float64(r.failed[b]) <= recoveryErrorRate*float64(ended) {
			return dur(time.Duration(b+1)*r.bucket - end)
		}
	}
	return "not within the run"
}

// usesQuota reports whether a run's mode pays retries from the retry
// quota, as the runtime decides it (runtime.Policy.Params.UsesQuota; §5).
// The "no retry" run is standard mode, which does.
func usesQuota(mode string) bool {
	if mode == modeNone {
		mode = string(runtime.ModeStandard)
	}
	p, err := runtime.ResolvePolicy(nil, nil, &runtime.Options{RetryMode: runtime.Mode(mode)}, nil, runtime.Env{})
	return err == nil && p.Params.UsesQuota
}

func modeName(m string) string {
	if m == modeNone {
		return "no retry"
	}
	return m
}

func failureName(kind string, retryAfterMs int) string {
	switch {
	case kind == failure503:
		return "HTTP 503"
	case retryAfterMs > 0:
		return fmt.Sprintf("HTTP 400 %s with x-amz-retry-after: %d", kind, retryAfterMs)
	}
	return "HTTP 400 " + kind
}

// condition describes a phase's server condition for the report's phase
// table: its failures, load and capacity factors, and for an overload phase
// what a request above capacity gets. Only a phase with none of these is
// "healthy".
func condition(p *Phase, s *Server) string {
	var parts []string
	if p.Kind == kindOverload {
		parts = append(parts, fmt.Sprintf("overload: requests above capacity (%s/s) get %s", num(s.Capacity*p.CapacityFactor), failureName(s.Overload, s.RetryAfterMs)))
	}
	if p.FailPercent > 0 {
		parts = append(parts, fmt.Sprintf("%s %% of requests fail with %s", num(p.FailPercent), failureName(p.Failure, s.RetryAfterMs)))
	}
	if p.Load != 1 {
		parts = append(parts, fmt.Sprintf("call rate × %s", num(p.Load)))
	}
	if p.CapacityFactor != 1 {
		parts = append(parts, fmt.Sprintf("capacity × %s", num(p.CapacityFactor)))
	}
	if len(parts) == 0 {
		return "healthy"
	}
	return strings.Join(parts, "; ")
}

func num(f float64) string { return fmt.Sprintf("%g", f) }

func mean(sum float64, n int64) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func ratio(a, b float64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3f", a/b)
}

func percent(a, b int64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f %%", 100*float64(a)/float64(b))
}

func dur(d time.Duration) string {
	switch {
	case d == 0:
		return "–"
	case d < time.Second:
		return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
}
