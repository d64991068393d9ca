package otelretry_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/otelretry"
)

// reply is one scripted response of the test server.
type reply struct {
	status int
	header map[string]string
}

// server answers the scripted replies in order over a real loopback socket
// and records the traceparent header of every request.
type server struct {
	mu          sync.Mutex
	replies     []reply
	traceparent []string
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.traceparent = append(s.traceparent, r.Header.Get("traceparent"))
	if len(s.replies) == 0 {
		w.WriteHeader(599)
		return
	}
	rp := s.replies[0]
	s.replies = s.replies[1:]
	for k, v := range rp.header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(rp.status)
	_, _ = w.Write([]byte(`{}`))
}

// TestTelemetry makes three calls through a client instrumented with
// otelretry, recorded by the SDK's in-memory span recorder and a manual
// metric reader:
//  1. Put: 503 (transient, full jitter 0.5 × 50 ms = 25 ms), 429
//     ThrottlingException with an API + User window of 1,500 ms (throttling;
//     the window beats full jitter 0.5 × 2 s = 1 s), 200;
//  2. Put with max attempts 1: 429 with a 300 ms window, returned at once;
//  3. Put: held back by that window and released by §8a's pacing (Limit 2)
//     into the window after next, then 200.
func TestTelemetry(t *testing.T) {
	srv := &server{replies: []reply{
		{status: 503},
		{status: 429, header: map[string]string{"X-Amzn-ErrorType": "ThrottlingException", "X-RateLimit-User-API": "Remain:0,Limit:2,Time:2000,TimeLeft:1500"}},
		{status: 200, header: map[string]string{"X-Request-Id": "req-3"}},
		{status: 429, header: map[string]string{"X-RateLimit-User-API": "Remain:0,Limit:2,Time:2000,TimeLeft:300"}},
		{status: 200},
	}}
	hs := httptest.NewServer(srv)
	defer hs.Close()

	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	tel, err := otelretry.New(otelretry.Config{TracerProvider: tp, MeterProvider: mp, Propagator: propagation.TraceContext{}})
	require.NoError(t, err)

	svc := &runtime.Service{
		Name:             "Test",
		ErrorCodeHeaders: []string{"X-Amzn-ErrorType"},
		ThrottleControl:  &runtime.ThrottleControl{UserAPIHeader: "X-RateLimit-User-API", UserHeader: "X-RateLimit-User", MaxDelay: 20 * time.Second},
	}
	var infos []runtime.AttemptInfo
	clock := clocktest.New(time.Unix(1_700_000_000, 0))
	c, err := runtime.NewClient(svc, hs.URL, runtime.Options{
		RetryMode: runtime.ModeAdaptive, Clock: clock, Rand: func() float64 { return 0.5 },
		OnCall:    tel.OnCall,
		OnAttempt: func(a runtime.AttemptInfo) { infos = append(infos, a) },
	})
	require.NoError(t, err)
	op := &runtime.Operation{Name: "Put", RetrySafe: true}

	// The caller's own span: the call's span must be its child.
	ctx, parent := tp.Tracer("caller").Start(context.Background(), "handler")
	md, err := c.Do(ctx, op, &runtime.Request{Method: "POST", Path: "/"}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 3, md.Attempts)
	one := c.Options()
	one.MaxAttempts = 1
	_, err = c.Do(ctx, op, &runtime.Request{Method: "POST", Path: "/"}, &one, nil)
	require.Error(t, err)
	md, err = c.Do(ctx, op, &runtime.Request{Method: "POST", Path: "/"}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 1, md.Attempts)
	parent.End()

	// Spans: three calls, children of the caller's span.
	ended := spans.Ended()
	require.Len(t, ended, 4)
	calls := ended[:3]
	for _, s := range calls {
		require.Equal(t, "Test.Put", s.Name())
		require.Equal(t, trace.SpanKindClient, s.SpanKind())
		require.Equal(t, parent.SpanContext().SpanID(), s.Parent().SpanID())
		require.Equal(t, parent.SpanContext().TraceID(), s.SpanContext().TraceID())
	}
	require.Equal(t, codes.Unset, calls[0].Status().Code)
	require.Equal(t, codes.Error, calls[1].Status().Code)
	require.Contains(t, calls[0].Attributes(), attribute.Int("retrygen.attempts", 3))
	require.Contains(t, calls[0].Attributes(), attribute.String("retrygen.retry_mode", "adaptive"))
	require.Contains(t, calls[0].Attributes(), attribute.String("retrygen.request_id", "req-3"))
	require.Equal(t, time.Unix(1_700_000_000, 0), calls[0].StartTime(), "the span starts at the call's start, by the client's clock")

	// One event per attempt: class, outcome, delay and its reason.
	type ev struct {
		class, outcome, reason string
		delayMs                int64
	}
	events := func(s sdktrace.ReadOnlySpan) []ev {
		var out []ev
		for _, e := range s.Events() {
			if e.Name == "exception" { // RecordError's event, on failed calls
				continue
			}
			require.Equal(t, "attempt", e.Name)
			m := map[attribute.Key]attribute.Value{}
			for _, a := range e.Attributes {
				m[a.Key] = a.Value
			}
			out = append(out, ev{m["retrygen.class"].AsString(), m["retrygen.outcome"].AsString(), m["retrygen.delay_reason"].AsString(), m["retrygen.delay_ms"].AsInt64()})
		}
		return out
	}
	require.Equal(t, []ev{
		{"transient", "retry_request", "full jitter", 25},
		// TimeLeft 1,500 ms, then the gentle release (retry-behavior.md §8a):
		// 0.5 (the fixed Rand) × half the 2,000 ms window.
		{"throttling", "retry_request", "throttle window (api_user)", 2000},
		{"success", "success", "", 0},
	}, events(calls[0]))
	require.Equal(t, []ev{{"throttling", "max_attempts_exceeded", "", 0}}, events(calls[1]))
	require.Equal(t, "exception", calls[1].Events()[1].Name, "the failed call's error is recorded")
	require.Equal(t, []ev{{"success", "success", "", 0}}, events(calls[2]))
	var admit attribute.Value
	for _, a := range calls[2].Events()[0].Attributes {
		if a.Key == "retrygen.admit_wait_ms" {
			admit = a.Value
		}
	}
	// The gentle release (retry-behavior.md §8a) paces held-back calls by
	// the window's Limit (2): the window after the first throttled one
	// already holds the first call's retry and the second call, so the third
	// call goes to the one after it, at 0.5 (the fixed Rand) × half its
	// 2,000 ms: 1,583 ms after the third call starts, not the 300 ms
	// TimeLeft of the window that held it back.
	require.Equal(t, int64(1583), admit.AsInt64(), "the third call waited for its release point")

	// traceparent on every attempt, naming the span of its call.
	require.Len(t, srv.traceparent, 5)
	want := func(s sdktrace.ReadOnlySpan) string {
		return "00-" + s.SpanContext().TraceID().String() + "-" + s.SpanContext().SpanID().String() + "-01"
	}
	require.Equal(t, []string{want(calls[0]), want(calls[0]), want(calls[0]), want(calls[1]), want(calls[2])}, srv.traceparent)

	// Metrics.
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	require.Len(t, rm.ScopeMetrics, 1)
	got := map[string]metricdata.Aggregation{}
	for _, m := range rm.ScopeMetrics[0].Metrics {
		got[m.Name] = m.Data
	}
	byClass := func(name string) map[string]int64 {
		out := map[string]int64{}
		for _, p := range got[name].(metricdata.Sum[int64]).DataPoints {
			require.Equal(t, "Put", attr(p.Attributes, "retrygen.operation"))
			require.Equal(t, "Test", attr(p.Attributes, "retrygen.service"))
			out[attr(p.Attributes, "retrygen.class")] += p.Value
		}
		return out
	}
	require.Equal(t, map[string]int64{"transient": 1, "throttling": 2, "success": 2}, byClass("retrygen.attempts"))
	require.Equal(t, map[string]int64{"transient": 1, "throttling": 1}, byClass("retrygen.retries"))
	quota := got["retrygen.retry_quota"].(metricdata.Gauge[int64]).DataPoints
	require.Len(t, quota, 1)
	require.Equal(t, int64(c.RetryQuota().Balance()), quota[0].Value)
	require.Equal(t, int64(500-14-5+5+1), quota[0].Value, "paid 14 and 5, refunded 5 on success, +1 for the third call's first-attempt success")
	waits := got["retrygen.throttle_window.waits"].(metricdata.Sum[int64]).DataPoints
	require.Len(t, waits, 1)
	require.Equal(t, int64(2), waits[0].Value, "the 2,000 ms retry delay and the wait before the third call")
	hist := got["retrygen.throttle_window.wait_duration"].(metricdata.Histogram[float64]).DataPoints
	require.Len(t, hist, 1)
	require.Equal(t, uint64(2), hist[0].Count)
	require.InDelta(t, 2.0+1.583333333, hist[0].Sum, 1e-6, "2 s and 1.583 s (§8a's release points)")
	rate := got["retrygen.adaptive.send_rate"].(metricdata.Gauge[float64]).DataPoints
	require.Len(t, rate, 1)
	require.Equal(t, infos[len(infos)-1].LimiterRate, rate[0].Value)
	require.Positive(t, rate[0].Value)
}

func attr(s attribute.Set, key string) string {
	v, _ := s.Value(attribute.Key(key))
	return v.AsString()
}
