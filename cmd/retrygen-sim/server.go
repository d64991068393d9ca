package main

import (
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// server is the simulated service: a rate-limited FIFO server (capacity,
// burst, queue), the phases' failures, and an optional Alibaba-style
// per-user fixed-window limit in front of it.
type server struct {
	cfg *Server
	rng *rand.Rand
	// tat is the theoretical arrival time of the generic cell rate
	// algorithm: when the server will have worked off every accepted
	// request at its capacity.
	tat time.Duration
	// windows counts each user's requests in its current fixed window
	// (Alibaba user limit).
	windows map[string]*userWindow
	// atBoundary and userRequests count the requests subject to the user
	// limit that arrive in the first 50 ms of a window, and all of them
	// (issue 22: released all at once, 100 % arrived there).
	atBoundary, userRequests int64
	// failures are the responses of failing requests by kind, built once
	// and shared: the runtime only reads an attempt's result.
	failures map[string]*engine.AttemptResult
}

// okResult is the response of every successful request.
var okResult = engine.AttemptResult{StatusCode: http.StatusOK, Sent: true}

// boundarySpan is the start of a user-limit window that atBoundary counts.
const boundarySpan = 50 * time.Millisecond

type userWindow struct {
	index int64 // window number since the start: floor(t / window)
	count int
}

func newServer(cfg *Server, rng *rand.Rand) *server {
	return &server{cfg: cfg, rng: rng, windows: map[string]*userWindow{}, failures: map[string]*engine.AttemptResult{}}
}

// handle answers one request arriving now from call c: it returns when the
// response reaches the client and what it says. In order: the user limit
// (a gateway in front of the service), the phase's failures, then capacity.
func (s *server) handle(r *run, c *call) (time.Duration, *engine.AttemptResult) {
	now := r.now
	latency := time.Duration(s.cfg.LatencyMs * float64(time.Millisecond))
	if u := s.cfg.UserLimit; u != nil {
		win := time.Duration(u.WindowMs) * time.Millisecond
		idx := int64(now / win)
		s.userRequests++
		if now%win < boundarySpan {
			s.atBoundary++
		}
		w := s.windows[c.cl.info.user]
		if w == nil {
			w = &userWindow{index: idx}
			s.windows[c.cl.info.user] = w
		}
		if w.index != idx {
			w.index, w.count = idx, 0
		}
		if w.count >= u.Limit {
			end := time.Duration(idx+1) * win
			res := alibabaThrottled(u, end-now, simEpoch.Add(end))
			return now + latency, &res
		}
		w.count++
	}
	// After the last phase its condition holds while the calls in flight
	// finish.
	p := r.phaseAt(now)
	if p < 0 {
		p = len(r.sc.Phases) - 1
	}
	ph := &r.sc.Phases[p]
	capacity := s.cfg.Capacity * ph.CapacityFactor
	if ph.FailPercent >= 100 || (ph.FailPercent > 0 && s.rng.Float64()*100 < ph.FailPercent) {
		return now + latency, s.failure(ph.Failure)
	}
	if capacity <= 0 {
		return now + latency, s.failure(s.cfg.Overload)
	}
	interval := time.Duration(math.Ceil(float64(time.Second) / capacity))
	s.tat = max(s.tat, now)
	backlog := s.tat - now
	if backlog > time.Duration(s.cfg.Burst+s.cfg.Queue)*interval {
		return now + latency, s.failure(s.cfg.Overload)
	}
	s.tat += interval
	wait := max(0, backlog-time.Duration(s.cfg.Burst)*interval)
	return now + wait + latency, &okResult
}

// failure is the response of a failing request: HTTP 503, or HTTP 400 with
// the error code kind (and x-amz-retry-after when the server sets one).
func (s *server) failure(kind string) *engine.AttemptResult {
	if res, ok := s.failures[kind]; ok {
		return res
	}
	res := apiError(http.StatusServiceUnavailable, "")
	if kind != failure503 {
		res = apiError(http.StatusBadRequest, kind)
		if s.cfg.RetryAfterMs > 0 {
			res.Header = http.Header{}
			res.Header.Set(engine.HeaderAmzRetryAfter, strconv.Itoa(s.cfg.RetryAfterMs))
		}
	}
	s.failures[kind] = &res
	return &res
}

// alibabaThrottled is an Alibaba-style throttled response: HTTP 400 with the
// limit's error code and the dimension's rate-limit header Remain:0 and the
// time left of the window.
func alibabaThrottled(u *UserLimit, left time.Duration, reset time.Time) engine.AttemptResult {
	header := engine.DefaultUserHeader
	if u.Dimension == engine.DimensionAPIUser {
		header = engine.DefaultUserAPIHeader
	}
	res := apiError(http.StatusBadRequest, u.Code)
	leftMs := (left + time.Millisecond - 1) / time.Millisecond
	res.Header = http.Header{}
	res.Header.Set(header, "Remain:0,Limit:"+strconv.Itoa(u.Limit)+",Time:"+strconv.Itoa(u.WindowMs)+
		",TimeLeft:"+strconv.FormatInt(int64(leftMs), 10)+",Reset:"+strconv.FormatInt(reset.UnixMilli(), 10))
	return res
}

func apiError(status int, code string) engine.AttemptResult {
	return engine.AttemptResult{
		StatusCode: status, Code: code, Sent: true,
		Err: &runtime.APIError{ErrorMetadata: runtime.ErrorMetadata{HTTPStatusCode: status, Code: code}},
	}
}
