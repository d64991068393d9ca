package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/retrygen/retrygen/generator"
	"github.com/retrygen/retrygen/internal/yamlfields"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// Scenario is one simulation: who calls, what serves them, and what happens
// to the server over time. It is read from YAML (see specs/scenarios/).
type Scenario struct {
	// Name titles the report; Description is printed under it.
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// Seed seeds every random source (arrivals, failures, jitter); the
	// -seed flag overrides it. 0 means 1.
	Seed uint64 `yaml:"seed"`
	// BucketMs is the width of a time bucket of the plots and of the
	// recovery measurement, in ms (default 1,000).
	BucketMs int `yaml:"bucketMs"`
	// Modes are the retry modes the scenario is run for, each on fresh
	// clients: standard, adaptive, legacy, aliyun, or none (max attempts
	// 1). Default: legacy, standard, adaptive, aliyun, none.
	Modes []string `yaml:"modes"`
	// Sharing lists how the clients of a group keep their throttle
	// windows and retry budget, each run for every mode: per-process
	// (default: each client its own window store, no fleet budget) or
	// shared (one in-memory window store per group and the group's
	// FleetRetryBudget, what a fleet-wide store such as Redis gives every
	// process).
	Sharing []string      `yaml:"sharing"`
	Clients []ClientGroup `yaml:"clients"`
	Server  Server        `yaml:"server"`
	Phases  []Phase       `yaml:"phases"`

	// dir is the scenario file's directory: relative spec and overlay
	// paths are relative to it.
	dir string
}

// ClientGroup is Count identical clients, each one runtime.Client with its
// own retry quota, rate limiter and throttle-window store.
type ClientGroup struct {
	Name  string `yaml:"name"`
	Count int    `yaml:"count"`
	// Rate is each client's call rate, calls/s, with Poisson arrivals
	// (open loop: calls arrive whether or not earlier ones finished).
	Rate float64 `yaml:"rate"`
	// ClosedLoop, instead of Rate, gives each client Concurrency callers
	// that each start a call, wait for it to end, think for an exponential
	// time of mean ThinkMs, and start the next.
	ClosedLoop *ClosedLoop `yaml:"closedLoop"`
	// MaxAttempts overrides the mode's max attempts (the spec's, else the
	// global default) in every mode but none.
	MaxAttempts int `yaml:"maxAttempts"`
	// TimeoutMs is each call's deadline in ms (0: none). A call still
	// waiting or in flight at its deadline fails.
	TimeoutMs int `yaml:"timeoutMs"`
	// User is the Alibaba user (account) the group's clients call as: the
	// server's user limit counts their requests together, and it is their
	// throttle identity. Empty: each client is a user of its own.
	User string `yaml:"user"`
	// Spec and Overlays, when set, give the group's clients the x-retry
	// settings of a spec (a relative path is relative to the scenario
	// file's directory), as its generated client would hold them; the
	// environment and config files still never apply. LoadScenario loads
	// and validates them, so a bad spec fails before any run. Without a
	// spec the clients use the simulator's AWS-like service.
	Spec     string   `yaml:"spec"`
	Overlays []string `yaml:"overlays"`
	// FleetRetryBudget, in the runs with shared stores, is the capacity in
	// tokens of one retry budget the group's clients share on top of their
	// own retry quotas (runtime.Options.FleetRetryBudget): a retry needs
	// both. 0: none.
	FleetRetryBudget int `yaml:"fleetRetryBudget"`
	// Streaming makes each client hold one long-lived stream (an event
	// stream, runtime.Client.Open) instead of making calls: its call
	// starts in the first second and stays open after its 2xx; a phase
	// with dropStreams cuts every open stream at its start, and each
	// reconnects as the next attempt of its call (engine.EventCut). No
	// rate or closedLoop.
	Streaming bool `yaml:"streaming"`

	// service is the spec's x-retry settings, loaded while the scenario
	// is validated; nil without a spec.
	service *runtime.Service
}

// ClosedLoop is a closed-loop client: a fixed number of callers.
type ClosedLoop struct {
	Concurrency int     `yaml:"concurrency"`
	ThinkMs     float64 `yaml:"thinkMs"`
}

// Server is the simulated service.
type Server struct {
	// Capacity is how many requests per second the server serves; above
	// it, requests wait in a queue of Queue requests (on top of a burst of
	// Burst served at once) and are rejected with the Overload failure
	// when it is full.
	Capacity float64 `yaml:"capacity"`
	Burst    int     `yaml:"burst"`
	Queue    int     `yaml:"queue"`
	// LatencyMs is the time from a request's arrival (after any queueing)
	// to its response, in ms; failures answer after it too.
	LatencyMs float64 `yaml:"latencyMs"`
	// Overload is how a request above capacity is rejected: "503" (HTTP
	// 503, no error code) or an error code, sent with HTTP 400 in
	// X-Amzn-ErrorType (a DynamoDB hot key: ThrottlingException); the
	// clients classify it by their own rules. Default 503.
	Overload string `yaml:"overload"`
	// RetryAfterMs, when positive, adds x-amz-retry-after: RetryAfterMs to
	// every failure that carries an error code.
	RetryAfterMs int `yaml:"retryAfterMs"`
	// UserLimit, when set, throttles each user Alibaba-style: Limit
	// requests per fixed window of WindowMs, then HTTP 400 with the error
	// code Code and X-RateLimit-User (or X-RateLimit-User-API) Remain:0 and
	// the window's TimeLeft.
	UserLimit *UserLimit `yaml:"userLimit"`
}

// UserLimit is an Alibaba-style per-user fixed-window rate limit.
type UserLimit struct {
	Limit    int `yaml:"limit"`
	WindowMs int `yaml:"windowMs"`
	// Dimension is user (X-RateLimit-User, blocks every operation) or
	// api_user (X-RateLimit-User-API). Default user.
	Dimension string `yaml:"dimension"`
	// Code is the error code of a throttled response (Alibaba:
	// Throttling.User, Throttling.Api); empty sends none, and the
	// Remain:0 header alone marks the response throttled for clients with
	// throttle control.
	Code string `yaml:"code"`
}

// Phase is a stretch of time with one server condition.
type Phase struct {
	Name string `yaml:"name"`
	// Kind is healthy, outage (every request fails), partial (FailPercent
	// of requests fail), overload (calls arrive Load times faster) or
	// recovery (healthy, measured as recovery after an outage).
	Kind      string  `yaml:"kind"`
	DurationS float64 `yaml:"durationS"`
	// Failure is what a failing request gets: "503" (default) or an error
	// code sent with HTTP 400, as Server.Overload.
	Failure     string  `yaml:"failure"`
	FailPercent float64 `yaml:"failPercent"`
	// Load multiplies every open-loop client's call rate (default 1).
	Load float64 `yaml:"load"`
	// CapacityFactor multiplies the server's capacity (default 1).
	CapacityFactor float64 `yaml:"capacityFactor"`
	// DropStreams: at the phase's start the server drops every open
	// stream at once (streaming groups).
	DropStreams bool `yaml:"dropStreams"`
}

// Phase kinds and failure kinds.
const (
	kindHealthy  = "healthy"
	kindOutage   = "outage"
	kindPartial  = "partial"
	kindOverload = "overload"
	kindRecovery = "recovery"

	// failure503 is an HTTP 503 without an error code; any other failure
	// is an error code sent with HTTP 400.
	failure503 = "503"

	// modeNone is the "no retry" run: standard mode with max attempts 1.
	modeNone = "none"

	sharingPerProcess = "per-process"
	sharingShared     = "shared"
)

var (
	allModes   = []string{string(runtime.ModeLegacy), string(runtime.ModeStandard), string(runtime.ModeAdaptive), string(runtime.ModeAliyun), modeNone}
	phaseKinds = []string{kindHealthy, kindOutage, kindPartial, kindOverload, kindRecovery}
	// errorCodePattern is what an error code in a scenario may look like.
	errorCodePattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._]{0,99}$`)
)

// maxClients and maxDuration bound a scenario so a typo cannot ask for
// unbounded memory or time.
const (
	maxClients   = 100_000
	maxDurationS = 24 * 3600
	maxRate      = 1e5
	// maxCalls bounds the calls a scenario's runs (modes × sharing) ask
	// for in all, estimated from its fields: each field may be within its
	// bound while their product is not (100,000 clients × 100 calls/s ×
	// 600 s is 6e9 calls). 1.5e8 is 2.5 times the bench's largest
	// scenario, 20,000 clients × 1 call/s × 600 s in five modes (6e7).
	maxCalls = 1.5e8
	// maxAttempts bounds the attempts a scenario's runs may make in all:
	// calls × max attempts, summed over its groups and runs (a call of an
	// outage with no retry quota makes every attempt it may). 4.8e8 is 2.5
	// times the bench's largest scenario, 1.2e7 calls per run in five
	// modes of 5 + 3 + 3 + 4 + 1 attempts (1.92e8); the calls bound alone
	// let 1.5e8 calls of 100 attempts each through (newuser4 G1: hours).
	maxAttempts = 4.8e8
)

// LoadScenario reads and validates a scenario file, loading the spec and
// overlays of every client group. Errors name the file and line:
// `outage.yaml:12: clients[0].count: must be an integer ≥ 1, got 0`,
// `outage.yaml:3: clients[0]: unknown field "rte" (allowed: name, …)`, or
// `outage.yaml:4: clients[0].spec: xr.yaml: 1 error(s) in the spec` followed
// by each located error of the spec on a line of its own.
func LoadScenario(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseScenario(path, data)
}

func parseScenario(path string, data []byte) (*Scenario, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping (name, clients, server, phases)", path)
	}
	v := validator{path: path, root: root.Content[0]}
	// The first key naming no field, located by the scenario's own path
	// (yaml.v3's KnownFields, with its line).
	yamlfields.Unknown(root.Content[0], reflect.TypeFor[Scenario](), "", func(key *yaml.Node, path string, known []string) bool {
		at := ""
		if path != "" {
			at = path + ": "
		}
		v.failLine(key.Line, "%sunknown field %q (allowed: %s)", at, key.Value, strings.Join(known, ", "))
		return false
	})
	if v.err != nil {
		return nil, v.err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var s Scenario
	if err := dec.Decode(&s); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			// "line 5: field rte not found in type main.ClientGroup"
			return nil, fmt.Errorf("%s:%s", path, strings.TrimPrefix(te.Errors[0], "line "))
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.dir = filepath.Dir(path)
	s.validate(&v)
	if v.err == nil {
		// Specs last: loading one costs more than every other check.
		s.loadSpecs(&v)
	}
	if v.err == nil {
		s.boundAttempts(&v)
	}
	if v.err != nil {
		return nil, v.err
	}
	return &s, nil
}

// resolve returns a path from the scenario file: p itself when absolute,
// else p joined to the scenario file's directory.
func (s *Scenario) resolve(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.dir, p)
}

// loadSpecs loads the x-retry settings of every client group that names a
// spec, each distinct spec and overlays once, and records the first that
// fails with the group's line and every located error of the spec.
func (s *Scenario) loadSpecs(v *validator) {
	loaded := map[string]*runtime.Service{}
	for i := range s.Clients {
		g := &s.Clients[i]
		if g.Spec == "" {
			continue
		}
		at := fmt.Sprintf("clients[%d]", i)
		spec := s.resolve(g.Spec)
		overlays := make([]string, len(g.Overlays))
		for j, o := range g.Overlays {
			overlays[j] = s.resolve(o)
			if _, err := os.Stat(overlays[j]); err != nil {
				v.fail(fmt.Sprintf("%s.overlays[%d]", at, j), "%v", err)
				return
			}
		}
		key := strings.Join(append([]string{spec}, overlays...), "\x00")
		if svc, ok := loaded[key]; ok {
			g.service = svc
			continue
		}
		svc, diags, err := generator.LoadRetryService(spec, overlays)
		if err != nil {
			where := at + ".spec"
			msg := err.Error()
			for _, d := range diags {
				if d.Severity != generator.SeverityError {
					continue
				}
				msg += "\n\t" + d.String()
				for j, o := range overlays {
					if d.File == o && where == at+".spec" {
						where = fmt.Sprintf("%s.overlays[%d]", at, j)
					}
				}
			}
			v.fail(where, "%s", msg)
			return
		}
		// The environment and config files never apply in a simulation.
		svc.EnvPrefix = ""
		loaded[key], g.service = svc, svc
	}
}

// validator records the first invalid value with its line.
type validator struct {
	path string
	root *yaml.Node
	err  error
}

// fail records "FILE:LINE: PATH: MSG" for the value at path (dotted keys,
// [i] indices), using the line of the nearest node that exists.
func (v *validator) fail(path, format string, a ...any) {
	v.failLine(v.line(path), "%s: %s", path, fmt.Sprintf(format, a...))
}

// failLine records "FILE:LINE: MSG" unless a failure is recorded already.
func (v *validator) failLine(line int, format string, a ...any) {
	if v.err != nil {
		return
	}
	v.err = fmt.Errorf("%s:%d: %s", v.path, line, fmt.Sprintf(format, a...))
}

func (v *validator) line(path string) int {
	n := v.root
	line := n.Line
	for _, part := range splitPath(path) {
		var next *yaml.Node
		if i, err := strconv.Atoi(part); err == nil {
			if n.Kind == yaml.SequenceNode && i < len(n.Content) {
				next = n.Content[i]
			}
		} else if n.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(n.Content); j += 2 {
				if n.Content[j].Value == part {
					next = n.Content[j+1]
				}
			}
		}
		if next == nil {
			break
		}
		n, line = next, next.Line
	}
	return line
}

// splitPath splits "clients[0].count" into clients, 0, count.
func splitPath(p string) []string {
	p = strings.NewReplacer("[", ".", "]", "").Replace(p)
	return strings.Split(p, ".")
}

// validFailure reports whether s is "503" or an error code.
func validFailure(s string) bool { return s == failure503 || errorCodePattern.MatchString(s) }

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func (s *Scenario) validate(v *validator) {
	if s.Name == "" {
		v.fail("name", "required")
	}
	if s.BucketMs == 0 {
		s.BucketMs = 1000
	}
	if s.BucketMs < 10 || s.BucketMs > 60_000 {
		v.fail("bucketMs", "must be between 10 and 60000 ms, got %d", s.BucketMs)
	}
	if len(s.Modes) == 0 {
		s.Modes = allModes
	}
	seen := map[string]bool{}
	for i, m := range s.Modes {
		if !slices.Contains(allModes, m) {
			v.fail(fmt.Sprintf("modes[%d]", i), "must be one of %s, got %q", strings.Join(allModes, ", "), m)
		}
		if seen[m] {
			v.fail(fmt.Sprintf("modes[%d]", i), "%q listed twice", m)
		}
		seen[m] = true
	}
	if len(s.Sharing) == 0 {
		s.Sharing = []string{sharingPerProcess}
	}
	seenSharing := map[string]bool{}
	for i, sh := range s.Sharing {
		if sh != sharingPerProcess && sh != sharingShared {
			v.fail(fmt.Sprintf("sharing[%d]", i), "must be %s or %s, got %q", sharingPerProcess, sharingShared, sh)
		}
		if seenSharing[sh] {
			v.fail(fmt.Sprintf("sharing[%d]", i), "%q listed twice", sh)
		}
		seenSharing[sh] = true
	}
	if len(s.Clients) == 0 {
		v.fail("clients", "at least one client group is required")
	}
	total := 0
	for i := range s.Clients {
		g := &s.Clients[i]
		at := fmt.Sprintf("clients[%d]", i)
		if g.Name == "" {
			g.Name = fmt.Sprintf("group%d", i+1)
		}
		if g.Count < 1 || g.Count > maxClients {
			v.fail(at+".count", "must be an integer between 1 and %d, got %d", maxClients, g.Count)
		}
		total += g.Count
		switch {
		case g.Streaming:
			if g.ClosedLoop != nil || g.Rate != 0 {
				v.fail(at+".streaming", "a streaming group holds one stream per client: give no rate or closedLoop")
			}
		case g.ClosedLoop != nil && g.Rate != 0:
			v.fail(at+".rate", "give rate (open loop) or closedLoop, not both")
		case g.ClosedLoop != nil:
			if c := g.ClosedLoop.Concurrency; c < 1 || c > 1000 {
				v.fail(at+".closedLoop.concurrency", "must be an integer between 1 and 1000, got %d", c)
			}
			// A call may end without reaching the server (a throttle
			// window longer than the client waits, a timeout) or reach one
			// with latencyMs 0, taking no virtual time: only think time
			// moves a closed loop on (third new-user trial F10).
			if t := g.ClosedLoop.ThinkMs; !finite(t) || t < 1 {
				v.fail(at+".closedLoop.thinkMs", "must be at least 1 ms (mean think time between a caller's calls), got %v: a call that ends without reaching the server (a throttle window, a timeout) takes no virtual time, so a closed loop without think time would not advance", t)
			}
		case !finite(g.Rate) || g.Rate <= 0 || g.Rate > maxRate:
			v.fail(at+".rate", "must be a call rate in calls/s in (0, %g], or give closedLoop", float64(maxRate))
		}
		if g.MaxAttempts < 0 || g.MaxAttempts > 100 {
			v.fail(at+".maxAttempts", "must be an integer between 1 and 100, got %d", g.MaxAttempts)
		}
		if g.Spec == "" && len(g.Overlays) > 0 {
			v.fail(at+".overlays", "overlays need a spec")
		}
		if g.FleetRetryBudget < 0 {
			v.fail(at+".fleetRetryBudget", "must be ≥ 0 tokens, got %d", g.FleetRetryBudget)
		}
		if g.TimeoutMs < 0 {
			v.fail(at+".timeoutMs", "must be ≥ 0 ms, got %d", g.TimeoutMs)
		}
	}
	if total > maxClients {
		v.fail("clients", "at most %d clients in all, got %d", maxClients, total)
	}
	sv := &s.Server
	if !finite(sv.Capacity) || sv.Capacity <= 0 || sv.Capacity > 1e7 {
		v.fail("server.capacity", "must be requests/s in (0, 1e7], got %v", sv.Capacity)
	}
	if sv.Burst < 0 {
		v.fail("server.burst", "must be ≥ 0, got %d", sv.Burst)
	}
	if sv.Queue < 0 {
		v.fail("server.queue", "must be ≥ 0, got %d", sv.Queue)
	}
	if !finite(sv.LatencyMs) || sv.LatencyMs < 0 || sv.LatencyMs > 600_000 {
		v.fail("server.latencyMs", "must be between 0 and 600000 ms, got %v", sv.LatencyMs)
	}
	if sv.Overload == "" {
		sv.Overload = failure503
	}
	if !validFailure(sv.Overload) {
		v.fail("server.overload", "must be 503 or an error code such as ThrottlingException, got %q", sv.Overload)
	}
	if sv.RetryAfterMs < 0 {
		v.fail("server.retryAfterMs", "must be ≥ 0 ms, got %d", sv.RetryAfterMs)
	}
	if u := sv.UserLimit; u != nil {
		if u.Limit < 1 {
			v.fail("server.userLimit.limit", "must be an integer ≥ 1, got %d", u.Limit)
		}
		if u.WindowMs < 1 {
			v.fail("server.userLimit.windowMs", "must be an integer ≥ 1 ms, got %d", u.WindowMs)
		}
		if u.Code != "" && !errorCodePattern.MatchString(u.Code) {
			v.fail("server.userLimit.code", "must be an error code such as Throttling.User, got %q", u.Code)
		}
		if u.Dimension == "" {
			u.Dimension = engine.DimensionUser
		}
		if u.Dimension != engine.DimensionUser && u.Dimension != engine.DimensionAPIUser {
			v.fail("server.userLimit.dimension", "must be %s or %s, got %q", engine.DimensionUser, engine.DimensionAPIUser, u.Dimension)
		}
	}
	if len(s.Phases) == 0 {
		v.fail("phases", "at least one phase is required")
	}
	var total_s float64
	for i := range s.Phases {
		p := &s.Phases[i]
		at := fmt.Sprintf("phases[%d]", i)
		if p.Name == "" {
			p.Name = p.Kind
		}
		if !slices.Contains(phaseKinds, p.Kind) {
			v.fail(at+".kind", "must be one of %s, got %q", strings.Join(phaseKinds, ", "), p.Kind)
		}
		if !finite(p.DurationS) || p.DurationS <= 0 {
			v.fail(at+".durationS", "must be > 0 s, got %v", p.DurationS)
		}
		total_s += p.DurationS
		if p.Failure == "" {
			p.Failure = failure503
		}
		if !validFailure(p.Failure) {
			v.fail(at+".failure", "must be 503 or an error code such as ThrottlingException, got %q", p.Failure)
		}
		switch p.Kind {
		case kindOutage:
			if p.FailPercent == 0 {
				p.FailPercent = 100
			}
		case kindPartial:
			if p.FailPercent <= 0 || p.FailPercent >= 100 {
				v.fail(at+".failPercent", "a partial failure needs a percentage in (0, 100), got %v", p.FailPercent)
			}
		}
		if !finite(p.FailPercent) || p.FailPercent < 0 || p.FailPercent > 100 {
			v.fail(at+".failPercent", "must be a percentage in [0, 100], got %v", p.FailPercent)
		}
		if p.Load == 0 {
			p.Load = 1
		}
		if !finite(p.Load) || p.Load < 0 || p.Load > 1000 {
			v.fail(at+".load", "must be a factor in (0, 1000], got %v", p.Load)
		}
		if p.CapacityFactor == 0 {
			p.CapacityFactor = 1
		}
		if !finite(p.CapacityFactor) || p.CapacityFactor < 0 || p.CapacityFactor > 1000 {
			v.fail(at+".capacityFactor", "must be a factor in (0, 1000], got %v", p.CapacityFactor)
		}
	}
	if total_s > maxDurationS {
		v.fail("phases", "at most %d s in all, got %v", maxDurationS, total_s)
	}
	if v.err == nil {
		s.boundCalls(v)
	}
}

// groupCalls is the calls group g asks for per run (boundCalls), the
// phases lasting seconds in all and weighted seconds weighted by load.
func (s *Scenario) groupCalls(g *ClientGroup, seconds, weighted float64) float64 {
	switch {
	case g.Streaming:
		return float64(g.Count)
	case g.ClosedLoop != nil:
		return float64(g.Count) * float64(g.ClosedLoop.Concurrency) * seconds * 1000 / max(g.ClosedLoop.ThinkMs+s.Server.LatencyMs, 1)
	}
	return float64(g.Count) * g.Rate * weighted
}

// boundAttempts refuses a scenario whose calls × max attempts, summed over
// its groups and runs, exceed maxAttempts, at the group and mode that ask
// for the most: the work a run does grows with each call's attempts, which
// boundCalls does not count. Max attempts are the ones each client of the
// run resolves (groupMaxAttempts); it runs after the specs are loaded.
func (s *Scenario) boundAttempts(v *validator) {
	var seconds, weighted float64
	for _, p := range s.Phases {
		seconds += p.DurationS
		weighted += p.Load * p.DurationS
	}
	total, worst, worstAt, worstMode, worstCalls, worstMax := 0.0, -1.0, 0, "", 0.0, 0
	for i := range s.Clients {
		g := &s.Clients[i]
		calls := s.groupCalls(g, seconds, weighted)
		svc, err := groupService(s, g)
		if err != nil {
			v.fail(fmt.Sprintf("clients[%d]", i), "%v", err)
			return
		}
		for _, mode := range s.Modes {
			n, err := groupMaxAttempts(svc, g, mode)
			if err != nil {
				v.fail(fmt.Sprintf("clients[%d]", i), "%v", err)
				return
			}
			a := calls * float64(n)
			total += a * float64(len(s.Sharing))
			if a > worst {
				worst, worstAt, worstMode, worstCalls, worstMax = a, i, mode, calls, n
			}
		}
	}
	if total <= maxAttempts {
		return
	}
	runs := len(s.Modes) * len(s.Sharing)
	plural := "s"
	if runs == 1 {
		plural = ""
	}
	v.fail(fmt.Sprintf("clients[%d]", worstAt), "calls × max attempts = %.3g × %d (%s) = %.3g attempts; the scenario asks for up to %.3g attempts over %d run%s (modes × sharing), at most %.3g: lower maxAttempts, count, rate or the phases' durationS",
		worstCalls, worstMax, modeName(worstMode), worst, total, runs, plural, float64(maxAttempts))
}

// groupMaxAttempts is the max attempts of a client of group g in a run of
// mode: the group's maxAttempts, else the one svc (the group's x-retry)
// resolves for the mode with nothing else set; 1 in mode "none".
func groupMaxAttempts(svc *runtime.Service, g *ClientGroup, mode string) (int, error) {
	if mode == modeNone {
		return 1, nil
	}
	if g.MaxAttempts > 0 {
		return g.MaxAttempts, nil
	}
	p, err := runtime.ResolvePolicy(svc, nil, &runtime.Options{RetryMode: runtime.Mode(mode)}, nil, noEnv)
	if err != nil {
		return 0, err
	}
	return p.MaxAttempts.Value, nil
}

// boundCalls refuses a scenario whose estimated calls over all its runs
// exceed maxCalls, at the group that asks for the most. Per run, an open
// loop group makes count × rate × Σ(load × durationS) calls; a closed loop
// one at most count × concurrency × Σ durationS × 1000 / (thinkMs +
// server.latencyMs, at least 1 ms); a streaming one a stream per client.
func (s *Scenario) boundCalls(v *validator) {
	var seconds, weighted float64
	for _, p := range s.Phases {
		seconds += p.DurationS
		weighted += p.Load * p.DurationS
	}
	runs := float64(len(s.Modes) * len(s.Sharing))
	perRun, worst, worstAt := 0.0, -1.0, 0
	for i := range s.Clients {
		n := s.groupCalls(&s.Clients[i], seconds, weighted)
		perRun += n
		if n > worst {
			worst, worstAt = n, i
		}
	}
	if perRun*runs <= maxCalls {
		return
	}
	g := s.Clients[worstAt]
	product, fields := "count × rate × durationS (load-weighted)", "count, rate"
	switch {
	case g.Streaming:
		product, fields = "count (one stream per client)", "count"
	case g.ClosedLoop != nil:
		product, fields = "count × closedLoop.concurrency × durationS × 1000 / (thinkMs + server.latencyMs, at least 1 ms)", "count, closedLoop.concurrency"
	}
	plural := "s"
	if runs == 1 {
		plural = ""
	}
	v.fail(fmt.Sprintf("clients[%d]", worstAt), "%s = %.3g calls per run; the scenario asks for %.3g calls over %g run%s (modes × sharing), at most %.3g: lower %s or the phases' durationS",
		product, worst, perRun*runs, runs, plural, float64(maxCalls), fields)
}
