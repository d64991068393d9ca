package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/retrygen/retrygen/generator"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// runExplain implements "retrygen explain": it prints the retry settings a
// client generated from the spec would resolve right now — retry mode and
// max attempts with the source that decided each (retry-behavior.md §2:
// options > environment > config file > spec > global default), and the
// mode's delays, jitter, retry quota and limiter. -mode and -max-attempts
// stand for client options.
func runExplain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("retrygen explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spec := fs.String("spec", "", "OpenAPI 3 spec `FILE` (YAML or JSON)")
	var overlays overlayFlags
	fs.Var(&overlays, "overlay", "OpenAPI Overlay 1.0 `FILE` applied to the spec first; repeatable, applied in order")
	mode := fs.String("mode", "", "retry `MODE` as if set in client options (standard, adaptive, legacy, aliyun)")
	maxAttempts := fs.Int("max-attempts", 0, "max attempts `N` as if set in client options (0: not set)")
	opName := fs.String("operation", "", "explain the operation `NAME` (its Go method name, any letter case): its own x-retry applies")
	config := fs.String("config", "", "read spec and overlays from the YAML `FILE` that retrygen generate -config reads; flags override it")
	opts := runtime.Options{}
	for name, dst := range map[string]**int{
		"retry-quota-capacity": &opts.RetryQuotaCapacity, "retry-cost-transient": &opts.RetryCostTransient,
		"retry-cost-throttling": &opts.RetryCostThrottling, "retry-cost-timeout": &opts.RetryCostTimeout,
		"no-retry-increment": &opts.NoRetryIncrement,
	} {
		fs.Func(name, "`TOKENS` as if set in client options (Options."+optionName(name)+")", func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("must be an integer ≥ 0, got %q", v)
			}
			*dst = &n
			return nil
		})
	}
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: retrygen explain [-config FILE] -spec FILE [-overlay FILE]... [-operation NAME] [-mode MODE] [-max-attempts N] [-retry-cost-transient TOKENS] [-retry-cost-throttling TOKENS] [-retry-cost-timeout TOKENS] [-no-retry-increment TOKENS] [-retry-quota-capacity TOKENS]\n\n"+
			"Prints the retry settings a generated client would resolve in this environment, and where each came from.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *config != "" {
		c, err := loadConfig(*config)
		if err != nil {
			printError(stderr, "retrygen explain", err)
			return 1
		}
		set := flagsSet(fs)
		if !set["spec"] {
			*spec = c.Spec
		}
		if !set["overlay"] {
			overlays = c.Overlays
		}
	}
	if *spec == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "retrygen explain: -spec is required and takes no arguments")
		fs.Usage()
		return 2
	}
	rs, ops, diags, err := generator.LoadRetryOperations(*spec, overlays)
	if err != nil {
		for _, d := range diags {
			if d.Severity == generator.SeverityError {
				fmt.Fprintln(stderr, d)
			}
		}
		printError(stderr, "retrygen explain", err)
		return 1
	}
	var op *runtime.Operation
	if *opName != "" {
		if op = findOperation(ops, *opName); op == nil {
			names := make([]string, len(ops))
			for i, o := range ops {
				names[i] = o.Name
			}
			fmt.Fprintf(stderr, "retrygen explain: -operation %s: no such operation; the spec's are %s\n", *opName, strings.Join(names, ", "))
			return 1
		}
	}
	opts.RetryMode, opts.MaxAttempts = runtime.Mode(*mode), *maxAttempts
	pol, err := runtime.ResolvePolicy(rs, op, &opts, nil, runtime.Env{})
	if err != nil {
		printError(stderr, "retrygen explain", err)
		return 1
	}
	out := explain(rs, &pol, runtime.ResolveQuotaSettings(&opts))
	if op != nil {
		out = explainOperation(out, op)
	} else if own := overriding(ops); len(own) > 0 {
		out += fmt.Sprintf("%-22s %s  (retrygen explain -operation NAME)\n", "operations with their own x-retry:", strings.Join(own, ", "))
	}
	fmt.Fprint(stdout, out)
	return 0
}

// findOperation returns the operation whose Go method name is name, else
// the one name matches in another letter case ("getA" for GetA, as its
// operationId is often written), else nil.
func findOperation(ops []runtime.Operation, name string) *runtime.Operation {
	var folded *runtime.Operation
	for i := range ops {
		switch {
		case ops[i].Name == name:
			return &ops[i]
		case strings.EqualFold(ops[i].Name, name) && folded == nil:
			folded = &ops[i]
		}
	}
	return folded
}

// explainOperation adds to out, explain's lines for op's resolved policy,
// the operation's name after the service line, and whether it long-polls
// and is retry-safe (§3, §7) at the end.
func explainOperation(out string, op *runtime.Operation) string {
	first, rest, _ := strings.Cut(out, "\n")
	yes := map[bool]string{true: "yes", false: "no"}
	return first + "\n" + fmt.Sprintf("%-22s %s\n", "operation:", op.Name) + rest +
		fmt.Sprintf("%-22s %s\n%-22s %s\n", "long polling:", onOff(op.LongPolling), "retry-safe:", yes[op.RetrySafe])
}

// overriding returns the names of the operations whose own x-retry (or
// x-speakeasy-retries) changes a setting explain prints: max attempts,
// delays, retry statuses, connection errors, the retry deadline, long
// polling or error codes.
func overriding(ops []runtime.Operation) []string {
	var out []string
	for _, r := range ops {
		if r.Backoff != (runtime.ModeDefaults{}) || r.LongPolling || len(r.RetryStatuses) > 0 || r.ConnectionErrorsNotRetried ||
			r.MaxElapsed > 0 || len(r.TransientCodes)+len(r.ThrottlingCodes)+len(r.NonRetryableCodes) > 0 {
			out = append(out, r.Name)
		}
	}
	return out
}

// explain renders the resolved policy (the one every call of an operation
// that declares nothing runs with), one "name: value (source)" per line.
func explain(svc *runtime.Service, pol *runtime.Policy, q engine.QuotaSettings) string {
	s, p := pol.Settings, pol.Params
	var b strings.Builder
	line := func(name string, value any, why string) {
		fmt.Fprintf(&b, "%-22s %v", name+":", value)
		if why != "" {
			fmt.Fprintf(&b, "  (%s)", why)
		}
		b.WriteByte('\n')
	}
	prefix := svc.EnvPrefix
	if prefix == "" {
		prefix = "none: environment and config file not read"
	}
	line("service", svc.Name, "env prefix "+prefix)
	line("retry mode", s.Mode.Value, s.Mode.Source.String())
	line("max attempts", s.MaxAttempts.Value, s.MaxAttempts.Source.String())
	line("transient base delay", p.TransientBaseDelay, "")
	line("throttling base delay", p.ThrottlingBaseDelay, "")
	line("max backoff", p.MaxBackoff, "")
	line("jitter", p.Jitter, "")
	if p.BackoffExponent != 0 && p.BackoffExponent != 2 {
		line("backoff exponent", p.BackoffExponent, "base × exponent^n")
	}
	if len(pol.RetryStatuses) > 0 {
		line("retry statuses", statusRanges(pol.RetryStatuses), "429 throttling, others transient; the rest not retried")
	}
	if pol.ConnectionErrorsNotRetried {
		line("connection errors", "not retried", "")
	}
	if pol.MaxElapsed > 0 {
		line("retry deadline", pol.MaxElapsed, "from the call's start")
	}
	if !p.UsesQuota {
		line("retry quota", "off", "")
	} else {
		tokens := func(name string, v engine.Setting[int]) {
			unit := " tokens"
			if v.Value == 1 {
				unit = " token"
			}
			line(name, strconv.Itoa(v.Value)+unit, v.Source.String())
		}
		tokens("retry quota", q.Capacity)
		tokens("retry cost transient", q.CostTransient)
		tokens("retry cost throttling", q.CostThrottling)
		tokens("retry cost timeout", q.CostTimeout)
		tokens("success increment", q.NoRetryIncrement)
	}
	limiter := "only adaptive mode uses the CUBIC rate limiter"
	if p.UsesLimiter {
		limiter = "adaptive mode"
	}
	line("rate limiter", onOff(p.UsesLimiter), limiter)
	windows := "off"
	if pol.ThrottleControl != nil {
		windows = "on, max delay " + pol.ThrottleMaxDelay.String()
	}
	line("throttle windows", windows, "")
	line("server delays", strings.Join(pol.ServerDelayHeaders, ", "), "max "+pol.MaxServerDelay.Round(time.Second).String())
	return b.String()
}

// optionName turns a flag name into its Options field name
// ("retry-cost-transient" → "RetryCostTransient").
func optionName(flagName string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(flagName, "-") {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// statusRanges renders status ranges as a spec writes them: "429, 5XX".
func statusRanges(rs []runtime.StatusRange) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		switch {
		case r.Min == r.Max:
			parts[i] = fmt.Sprint(r.Min)
		case r.Min%100 == 0 && r.Max == r.Min+99:
			parts[i] = fmt.Sprintf("%dXX", r.Min/100)
		default:
			parts[i] = fmt.Sprintf("%d-%d", r.Min, r.Max)
		}
	}
	return strings.Join(parts, ", ")
}
