// Package otelretry reports the calls of retrygen clients to OpenTelemetry:
// a span per call, an event per attempt, W3C trace context on every attempt,
// and retry metrics. It is opt-in: generated code never imports it, and the
// runtime itself imports only the standard library.
//
//	tel, err := otelretry.New(otelretry.Config{}) // the global providers and propagator
//	client, err := dynamodb.New(endpoint, func(o *dynamodb.Options) { o.OnCall = tel.OnCall })
//
// Spans: one per call, named "SERVICE.OPERATION" (span kind client), a child
// of the span in the call's context. Attributes: retrygen.service,
// retrygen.operation, retrygen.retry_mode, retrygen.max_attempts and, when
// the call ends, retrygen.attempts and retrygen.request_id; status Error with
// the error's text when the call fails. Each attempt adds an event named
// "attempt" with retrygen.attempt, retrygen.class ("transient",
// "throttling", …), retrygen.outcome ("retry_request", "success", …),
// http.response.status_code, retrygen.error_code, retrygen.delay_ms (the wait
// that follows), retrygen.delay_reason ("full jitter", "Retry-After", …),
// retrygen.retry_quota and, when it waited for a throttle window first,
// retrygen.admit_wait_ms.
//
// Propagation: the configured propagator (default: the global one, which
// should include propagation.TraceContext) injects the call span's context
// into every attempt's request, retries included, so each carries a
// traceparent header naming the call's span.
//
// Metrics (meter "github.com/retrygen/retrygen/runtime/otelretry"), each
// with the attributes retrygen.service and retrygen.operation:
//   - retrygen.attempts (counter, {attempt}), also by retrygen.class;
//   - retrygen.retries (counter, {retry}): attempts followed by a retry, by
//     retrygen.class ("transient" or "throttling");
//   - retrygen.retry_quota (gauge, {token}): the client's retry quota
//     balance after each attempt (retry-behavior.md §5);
//   - retrygen.throttle_window.waits (counter, {wait}) and
//     retrygen.throttle_window.wait_duration (histogram, s): waits for
//     throttle windows, before an attempt or as its retry delay (§8);
//   - retrygen.adaptive.send_rate (gauge, {token}/s): the adaptive rate
//     limiter's fill rate after each attempt, once it is enabled (§6).
package otelretry

import (
	"context"
	"net/http"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/retrygen/retrygen/runtime"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/retrygen/retrygen/runtime/otelretry"

// Config chooses the OpenTelemetry providers. Nil fields mean the global
// ones (otel.GetTracerProvider, otel.GetMeterProvider,
// otel.GetTextMapPropagator).
type Config struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	Propagator     propagation.TextMapPropagator
}

// Telemetry holds the tracer, the propagator and the metric instruments;
// its OnCall method is a runtime.Options.OnCall hook. Safe for concurrent
// use; one Telemetry may serve any number of clients.
type Telemetry struct {
	tracer     trace.Tracer
	propagator propagation.TextMapPropagator

	attempts, retries, windowWaits metric.Int64Counter
	quota                          metric.Int64Gauge
	windowWait                     metric.Float64Histogram
	sendRate                       metric.Float64Gauge
}

// New creates the tracer and the metric instruments. It returns the meter's
// error when an instrument cannot be created.
func New(cfg Config) (*Telemetry, error) {
	tp, mp, prop := cfg.TracerProvider, cfg.MeterProvider, cfg.Propagator
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	if prop == nil {
		prop = otel.GetTextMapPropagator()
	}
	t := &Telemetry{tracer: tp.Tracer(ScopeName, trace.WithInstrumentationVersion(runtime.Version)), propagator: prop}
	m := mp.Meter(ScopeName, metric.WithInstrumentationVersion(runtime.Version))
	var err error
	if t.attempts, err = m.Int64Counter("retrygen.attempts", metric.WithUnit("{attempt}"),
		metric.WithDescription("Attempts sent, first attempts and retries, by retry class of their result.")); err != nil {
		return nil, err
	}
	if t.retries, err = m.Int64Counter("retrygen.retries", metric.WithUnit("{retry}"),
		metric.WithDescription("Attempts followed by a retry, by the retry class that caused it.")); err != nil {
		return nil, err
	}
	if t.quota, err = m.Int64Gauge("retrygen.retry_quota", metric.WithUnit("{token}"),
		metric.WithDescription("The client's retry quota balance after the last attempt.")); err != nil {
		return nil, err
	}
	if t.windowWaits, err = m.Int64Counter("retrygen.throttle_window.waits", metric.WithUnit("{wait}"),
		metric.WithDescription("Waits for a throttle window, before an attempt or as its retry delay.")); err != nil {
		return nil, err
	}
	if t.windowWait, err = m.Float64Histogram("retrygen.throttle_window.wait_duration", metric.WithUnit("s"),
		metric.WithDescription("How long each throttle-window wait lasted.")); err != nil {
		return nil, err
	}
	if t.sendRate, err = m.Float64Gauge("retrygen.adaptive.send_rate", metric.WithUnit("{token}/s"),
		metric.WithDescription("The adaptive rate limiter's fill rate after the last attempt, once enabled.")); err != nil {
		return nil, err
	}
	return t, nil
}

// OnCall is a runtime.Options.OnCall hook: it starts the call's span as a
// child of ctx's span and returns hooks that inject trace context into
// every attempt, add an event and record metrics per attempt, and end the
// span with the call.
func (t *Telemetry) OnCall(ctx context.Context, call runtime.CallInfo) runtime.CallHooks {
	common := attribute.NewSet(
		attribute.String("retrygen.service", call.Service),
		attribute.String("retrygen.operation", call.Operation))
	ctx, span := t.tracer.Start(ctx, spanName(call), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(call.Start),
		trace.WithAttributes(common.ToSlice()...),
		trace.WithAttributes(
			attribute.String("retrygen.retry_mode", string(call.Mode)),
			attribute.Int("retrygen.max_attempts", call.MaxAttempts)))
	return runtime.CallHooks{
		Context: ctx,
		BeforeAttempt: func(req *http.Request, _ int) error {
			t.propagator.Inject(req.Context(), propagation.HeaderCarrier(req.Header))
			return nil
		},
		OnAttempt: func(a runtime.AttemptInfo) { t.attempt(ctx, span, common, a) },
		End: func(md runtime.ResponseMetadata, err error) {
			span.SetAttributes(attribute.Int("retrygen.attempts", md.Attempts))
			if md.RequestID != "" {
				span.SetAttributes(attribute.String("retrygen.request_id", md.RequestID))
			}
			if err != nil {
				span.RecordError(err)
				span.SetStatus(codes.Error, err.Error())
			}
			span.End()
		},
	}
}

// spanName is "SERVICE.OPERATION", or the operation alone for a nameless
// service.
func spanName(call runtime.CallInfo) string {
	if call.Service == "" {
		return call.Operation
	}
	return call.Service + "." + call.Operation
}

// attempt records one attempt: its span event and its metrics.
func (t *Telemetry) attempt(ctx context.Context, span trace.Span, common attribute.Set, a runtime.AttemptInfo) {
	attrs := []attribute.KeyValue{
		attribute.Int("retrygen.attempt", a.Attempt),
		attribute.String("retrygen.class", a.Class.String()),
		attribute.String("retrygen.outcome", a.Outcome.String()),
		attribute.Int("http.response.status_code", a.StatusCode),
		attribute.String("retrygen.error_code", a.Code),
		attribute.Int64("retrygen.delay_ms", a.Delay.Milliseconds()),
		attribute.String("retrygen.delay_reason", a.DelayReason),
		attribute.Int("retrygen.retry_quota", a.QuotaBalance),
	}
	if a.AdmitWait > 0 {
		attrs = append(attrs, attribute.Int64("retrygen.admit_wait_ms", a.AdmitWait.Milliseconds()))
	}
	span.AddEvent("attempt", trace.WithAttributes(attrs...))

	base := metric.WithAttributeSet(common)
	class := attribute.String("retrygen.class", a.Class.String())
	t.attempts.Add(ctx, 1, base, metric.WithAttributes(class))
	if a.Retry {
		t.retries.Add(ctx, 1, base, metric.WithAttributes(class))
	}
	t.quota.Record(ctx, int64(a.QuotaBalance), base)
	if a.AdmitWait > 0 {
		t.windowWaitObserved(ctx, base, a.AdmitWait)
	}
	if a.Retry && strings.HasPrefix(a.DelayReason, "throttle window") {
		t.windowWaitObserved(ctx, base, a.Delay)
	}
	if a.LimiterRate > 0 {
		t.sendRate.Record(ctx, a.LimiterRate, base)
	}
}

func (t *Telemetry) windowWaitObserved(ctx context.Context, base metric.MeasurementOption, d time.Duration) {
	t.windowWaits.Add(ctx, 1, base)
	t.windowWait.Record(ctx, d.Seconds(), base)
}
