package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/retrygen/retrygen/internal/vectors"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/clocktest"
)

// runVectors implements "retrygen vectors FILE...": it runs every scenario of
// the cross-SDK retry vector files (format: shared/vectors/README.md) against
// the real runtime with a fake clock and a fixed random value. It prints one
// line per scenario ("PASS name" or "FAIL name: step N: want …, got …"), then
// "N passed, N failed" (", N skipped" for kinds not supported yet). Exit 0
// when none failed, 1 when any failed, 2 when a file cannot be read or
// parsed.
func runVectors(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("retrygen vectors", flag.ContinueOnError)
	fs.SetOutput(stderr)
	specs := fs.String("specs", "specs", "`DIR` holding the project's specs and overlays (relative to the working directory): a scenario's \"service: NAME\" takes its x-retry defaults from DIR/NAME.overlay.yaml and the spec it extends")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: retrygen vectors [-specs DIR] FILE...\n\nRuns cross-SDK retry conformance vectors against the runtime.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "retrygen vectors: no vector files given")
		fs.Usage()
		return 2
	}
	var files []vectors.File
	for _, path := range fs.Args() {
		f, err := vectors.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "retrygen vectors: %v\n", err)
			return 2
		}
		files = append(files, f)
	}
	r := vectorRunner{services: serviceLoader{dir: *specs}}
	var passed, failed, skipped int
	for _, f := range files {
		for _, sc := range f.Scenarios {
			res := r.run(&sc)
			switch {
			case res.skip != "":
				skipped++
				fmt.Fprintf(stdout, "SKIP %s: %s\n", sc.Name, res.skip)
			case res.fail != "":
				failed++
				fmt.Fprintf(stdout, "FAIL %s: %s\n", sc.Name, res.fail)
			default:
				passed++
				fmt.Fprintf(stdout, "PASS %s\n", sc.Name)
			}
		}
	}
	line := fmt.Sprintf("%d passed, %d failed", passed, failed)
	if skipped > 0 {
		line += fmt.Sprintf(", %d skipped", skipped)
	}
	fmt.Fprintln(stdout, line)
	if failed > 0 {
		return 1
	}
	return 0
}

// result is a scenario's verdict: skip or fail hold the reason; both empty
// means it passed.
type result struct{ skip, fail string }

func failf(format string, a ...any) result { return result{fail: fmt.Sprintf(format, a...)} }

type vectorRunner struct {
	services serviceLoader
}

func (r *vectorRunner) run(sc *vectors.Scenario) result {
	switch {
	case sc.Kind == "throttle_control":
		return r.runThrottleControl(sc)
	case sc.Kind != "":
		return result{skip: fmt.Sprintf("unknown kind %q", sc.Kind)}
	case sc.Responses != nil:
		return r.runResponses(sc)
	case sc.Threads != nil:
		return r.runThreads(sc)
	case sc.Cases != nil && sc.Given.LastMaxRate != nil:
		return runCubic(sc)
	case sc.Cases != nil:
		return runSendingRate(sc)
	}
	return result{skip: "no responses, threads, cases or steps"}
}

// vectorOperation is the operation every vector call uses.
var vectorOperation = runtime.Operation{Name: "VectorOperation"}

// client builds the runtime client a "responses" or "threads" scenario runs
// on, with its fake clock.
func (r *vectorRunner) client(sc *vectors.Scenario, hc runtime.HTTPClient, hook func(runtime.AttemptInfo)) (*runtime.Client, *runtime.Operation, error) {
	svc, err := r.services.service(sc.Given.Service)
	if err != nil {
		return nil, nil, err
	}
	rnd := 1.0
	if sc.Given.ExponentialBase != nil {
		rnd = *sc.Given.ExponentialBase
	}
	opts := runtime.Options{
		HTTPClient:         hc,
		RetryMode:          runtime.Mode(sc.Given.Mode),
		RetryQuotaCapacity: sc.Given.InitialRetryTokens,
		Clock:              clocktest.New(time.Unix(0, 0)),
		Rand:               func() float64 { return rnd },
		OnAttempt:          hook,
	}
	if sc.Given.MaxAttempts != nil {
		opts.MaxAttempts = *sc.Given.MaxAttempts
	}
	if sc.Given.MaxBackoffTime != nil {
		opts.MaxBackoff = seconds(*sc.Given.MaxBackoffTime)
	}
	c, err := runtime.NewClient(svc, "http://vectors.invalid", opts)
	if err != nil {
		return nil, nil, err
	}
	op := vectorOperation
	op.LongPolling = sc.Given.LongPolling
	return c, &op, nil
}

// runResponses feeds the responses in order to one client: a call ends when
// the runtime stops retrying; the next response starts a new call.
func (r *vectorRunner) runResponses(sc *vectors.Scenario) result {
	script := &scriptedHTTP{steps: sc.Responses}
	var infos []runtime.AttemptInfo
	c, op, err := r.client(sc, script, func(a runtime.AttemptInfo) { infos = append(infos, a) })
	if err != nil {
		return failf("setup: %v", err)
	}
	for script.next < len(sc.Responses) {
		before := script.next
		_, _ = c.Do(context.Background(), op, &runtime.Request{Method: http.MethodPost, Path: "/"}, nil, nil)
		if script.next == before {
			return failf("step %d: the runtime sent no request", before+1)
		}
	}
	if script.err != nil {
		return failf("%v", script.err)
	}
	if len(infos) != len(sc.Responses) {
		return failf("want %d attempts observed, got %d", len(sc.Responses), len(infos))
	}
	for i, step := range sc.Responses {
		if msg := checkStep(&step, &infos[i]); msg != "" {
			return failf("step %d: %s", i+1, msg)
		}
	}
	return result{}
}

// runThreads runs each thread's responses as calls in its own goroutine, all
// on one client, and checks only the final quota.
func (r *vectorRunner) runThreads(sc *vectors.Scenario) result {
	c, op, err := r.client(sc, nil, nil)
	if err != nil {
		return failf("setup: %v", err)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(sc.Threads))
	for i, steps := range sc.Threads {
		wg.Go(func() {
			script := &scriptedHTTP{steps: steps}
			opts := c.Options()
			opts.HTTPClient = script
			for script.next < len(steps) {
				before := script.next
				_, _ = c.Do(context.Background(), op, &runtime.Request{Method: http.MethodPost, Path: "/"}, &opts, nil)
				if script.next == before {
					errs[i] = fmt.Errorf("thread %d: the runtime sent no request", i+1)
					return
				}
			}
			errs[i] = script.err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return failf("%v", err)
	}
	if sc.ExpectedFinalQuota != nil {
		if got := c.RetryQuota().Balance(); got != *sc.ExpectedFinalQuota {
			return failf("final quota: want %d, got %d", *sc.ExpectedFinalQuota, got)
		}
	}
	return result{}
}

// checkStep compares one observed attempt with a step's expectations.
func checkStep(step *vectors.Step, a *runtime.AttemptInfo) string {
	want := step.Expected
	if got := a.Outcome.String(); got != want.Outcome {
		return fmt.Sprintf("want outcome %s, got %s (%v)", want.Outcome, got, a.Err)
	}
	if want.RetryQuota != nil && a.QuotaBalance != *want.RetryQuota {
		return fmt.Sprintf("want retry_quota %d, got %d", *want.RetryQuota, a.QuotaBalance)
	}
	if want.Delay != nil {
		if diff := a.Delay - seconds(*want.Delay); diff < -time.Microsecond || diff > time.Microsecond {
			return fmt.Sprintf("want delay %gs, got %gs", *want.Delay, a.Delay.Seconds())
		}
	}
	return ""
}

// seconds converts float seconds to a Duration, rounded to the nanosecond.
func seconds(s float64) time.Duration { return time.Duration(math.Round(s * 1e9)) }

// scriptedHTTP answers each request with the next scripted response. The
// error code travels in the X-Amzn-ErrorType header, which every vector
// service reads.
type scriptedHTTP struct {
	mu    sync.Mutex
	steps []vectors.Step
	next  int
	err   error
}

func (s *scriptedHTTP) Do(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.steps) {
		s.err = fmt.Errorf("step %d: the runtime made an attempt the scenario does not expect", s.next+1)
		return nil, s.err
	}
	step := &s.steps[s.next].Response
	s.next++
	h := make(http.Header)
	for k, v := range step.Headers {
		h.Set(k, v)
	}
	if step.ErrorCode != "" {
		h.Set(vectorErrorHeader, step.ErrorCode)
	}
	return &http.Response{
		StatusCode: step.StatusCode,
		Status:     strconv.Itoa(step.StatusCode) + " " + http.StatusText(step.StatusCode),
		Header:     h,
		Body:       io.NopCloser(bytes.NewReader(nil)),
		Request:    req,
	}, nil
}

// vectorErrorHeader carries a scripted response's error code.
const vectorErrorHeader = "X-Amzn-ErrorType"
