package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/retrygen/retrygen/runtime/openapi"
	"github.com/stretchr/testify/require"
)

// These tests run over a real 127.0.0.1 socket on purpose: a stream cut by
// the server must look to the client as it does on a real wire (a chunked
// body that ends without its last chunk). Delays run on the fake clock.

// sseEvent is the payload of the test streams.
type sseEvent struct {
	N int `json:"n"`
}

// writeEvents writes events first..last (ids = n) and flushes.
func writeEvents(w http.ResponseWriter, first, last int) {
	for n := first; n <= last; n++ {
		fmt.Fprintf(w, "id: %d\ndata: {\"n\":%d}\n\n", n, n)
	}
	w.(http.Flusher).Flush()
}

// cut ends the response without its last chunk: the client reads a body
// that broke off (io.ErrUnexpectedEOF).
func cut(w http.ResponseWriter, partial string) {
	fmt.Fprint(w, partial)
	w.(http.Flusher).Flush()
	panic(http.ErrAbortHandler)
}

// openEvents opens an event stream of op at the server.
func openEvents(t *testing.T, c *Client, op *Operation, method string) (*Stream, *openapi.EventStream[sseEvent]) {
	t.Helper()
	s, err := c.Open(context.Background(), op, &Request{Method: method, Path: "/events"}, nil)
	require.NoError(t, err)
	return s, openapi.NewEventStream[sseEvent](s, openapi.EventStreamOptions{Sentinel: openapi.DoneSentinel})
}

// collect reads every event, returning their payloads and the error that
// ended the stream (nil at its end).
func collect(es *openapi.EventStream[sseEvent]) ([]int, error) {
	var got []int
	for e, err := range es.All(context.Background()) {
		if err != nil {
			return got, err
		}
		got = append(got, e.Data.N)
	}
	return got, nil
}

func TestEventStreamReconnectsWithLastEventIDAsOneMoreAttempt(t *testing.T) {
	srv := newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "text/event-stream")
		switch n {
		case 1:
			writeEvents(w, 1, 3)
			cut(w, "id: 4\ndata: {\"n\":4") // a partial event, never delivered
		case 2:
			writeEvents(w, 4, 5)
		}
	})
	var infos []AttemptInfo
	c, clock := loopbackClient(t, testService(), srv.URL, func(o *Options) {
		o.OnAttempt = func(a AttemptInfo) { infos = append(infos, a) }
	})
	s, es := openEvents(t, c, opGet, http.MethodGet)
	got, err := collect(es)
	require.NoError(t, err)
	require.Equal(t, []int{1, 2, 3, 4, 5}, got, "every event exactly once")
	seen := srv.seen()
	require.Len(t, seen, 2)
	require.Empty(t, seen[0].Get("Last-Event-ID"))
	require.Equal(t, "3", seen[1].Get("Last-Event-ID"))
	require.Equal(t, "attempt=2; max=3", seen[1].Get("amz-sdk-request"), "the reconnect is the call's second attempt")
	require.Equal(t, 2, s.Metadata().Attempts)
	type row struct {
		Attempt int
		Outcome engine.Outcome
		Class   engine.Class
		Balance int
	}
	var rows []row
	for _, a := range infos {
		rows = append(rows, row{a.Attempt, a.Outcome, a.Class, a.QuotaBalance})
	}
	require.Equal(t, []row{
		{1, engine.OutcomeSuccess, engine.ClassSuccess, 500},
		{1, engine.OutcomeRetry, engine.ClassTransient, 486}, // the cut: one transient retry paid (14 tokens)
		{2, engine.OutcomeSuccess, engine.ClassSuccess, 500}, // the reconnect succeeded: its cost refunded
	}, rows)
	require.Empty(t, clock.Sleeps(), "full jitter at Rand 0: no wait")
}

func TestEventStreamRetryFieldIsTheReconnectDelay(t *testing.T) {
	for _, tc := range []struct {
		name  string
		retry string
		want  time.Duration
	}{
		{"retry 1500 ms is honoured", "1500", 1500 * time.Millisecond},
		{"a retry above the max server delay is clamped to it", "60000", engine.DefaultMaxServerDelay},
		{"an overflowing retry is clamped too, not ignored", "99999999999999", engine.DefaultMaxServerDelay},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Content-Type", "text/event-stream")
				if n == 1 {
					fmt.Fprintf(w, "retry: %s\n", tc.retry)
					writeEvents(w, 1, 1)
					cut(w, "")
				}
				writeEvents(w, 2, 2)
			})
			var reasons []string
			c, clock := loopbackClient(t, testService(), srv.URL, func(o *Options) {
				o.Rand = fixedRand(0.5) // backoff 25 ms: below the retry field
				o.OnAttempt = func(a AttemptInfo) {
					if a.Retry {
						reasons = append(reasons, a.DelayReason)
					}
				}
			})
			_, es := openEvents(t, c, opGet, http.MethodGet)
			got, err := collect(es)
			require.NoError(t, err)
			require.Equal(t, []int{1, 2}, got)
			require.Equal(t, []time.Duration{tc.want}, clock.Sleeps())
			require.Equal(t, []string{"event stream retry field"}, reasons)
		})
	}
}

func TestEventStreamFailingPastMaxAttemptsEndsWithMaxAttemptsError(t *testing.T) {
	srv := newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n > 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		writeEvents(w, 1, 2)
		cut(w, "")
	})
	c, _ := loopbackClient(t, testService(), srv.URL, nil)
	s, es := openEvents(t, c, opGet, http.MethodGet)
	got, err := collect(es)
	require.Equal(t, []int{1, 2}, got, "the events delivered before the failure")
	var ma *MaxAttemptsError
	require.ErrorAs(t, err, &ma)
	require.Equal(t, 3, ma.Attempts)
	var api *APIError
	require.ErrorAs(t, err, &api)
	require.Equal(t, http.StatusServiceUnavailable, api.HTTPStatusCode)
	var oe *OperationError
	require.ErrorAs(t, err, &oe)
	require.Equal(t, "GetThing", oe.Operation)
	require.Len(t, srv.seen(), 3)
	require.Equal(t, 3, s.Metadata().Attempts)
}

func TestEventStreamOfAnOperationNotRetrySafeReconnectsOnlyWhenAskedTo(t *testing.T) {
	for _, resume := range []bool{false, true} {
		t.Run(fmt.Sprint("ResumeStreams=", resume), func(t *testing.T) {
			srv := newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Content-Type", "text/event-stream")
				if n == 1 {
					writeEvents(w, 1, 1)
					cut(w, "")
				}
				writeEvents(w, 2, 2)
				fmt.Fprint(w, "data: [DONE]\n\n")
			})
			c, _ := loopbackClient(t, testService(), srv.URL, func(o *Options) { o.ResumeStreams = resume })
			_, es := openEvents(t, c, opPost, http.MethodPost)
			got, err := collect(es)
			if !resume {
				require.Equal(t, []int{1}, got)
				var nrs *NotRetrySafeError
				require.ErrorAs(t, err, &nrs)
				require.Len(t, srv.seen(), 1)
				return
			}
			require.NoError(t, err)
			require.Equal(t, []int{1, 2}, got)
			require.Len(t, srv.seen(), 2)
		})
	}
}

func TestStreamEndRunsTheCallsEndHookOnce(t *testing.T) {
	srv := newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "text/event-stream")
		writeEvents(w, 1, 1)
	})
	var ends []error
	c, _ := loopbackClient(t, testService(), srv.URL, func(o *Options) {
		o.OnCall = func(context.Context, CallInfo) CallHooks {
			return CallHooks{End: func(_ ResponseMetadata, err error) { ends = append(ends, err) }}
		}
	})
	_, es := openEvents(t, c, opGet, http.MethodGet)
	got, err := collect(es)
	require.NoError(t, err)
	require.Equal(t, []int{1}, got)
	require.Equal(t, []error{nil}, ends)
	require.False(t, errors.Is(err, context.Canceled))
}

func TestEventStreamContextEndWhileWaitingClosesTheStream(t *testing.T) {
	release := make(chan struct{})
	srv := newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "text/event-stream")
		writeEvents(w, 1, 1)
		select { // hold the stream open until the test ends
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	var ends []error
	c, _ := loopbackClient(t, testService(), srv.URL, func(o *Options) {
		o.OnCall = func(context.Context, CallInfo) CallHooks {
			return CallHooks{End: func(_ ResponseMetadata, err error) { ends = append(ends, err) }}
		}
	})
	_, es := openEvents(t, c, opGet, http.MethodGet)
	ctx, cancel := context.WithCancel(context.Background())
	e, err := es.Next(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, e.Data.N)
	done := make(chan error)
	go func() { _, err := es.Next(ctx); done <- err }()
	time.Sleep(20 * time.Millisecond) // let Next block in Read
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	require.Len(t, srv.seen(), 1, "no reconnect after the caller's context ended")
	require.Len(t, ends, 1, "the call ended once")
}

// TestEventCutDecidesTheSuccessfulAttemptAgain drives the state machine by
// hand: a 2xx ends the call; its body breaking off (EventCut) makes that
// attempt a transient failure, retried as attempt 2; a cut after a failed
// call changes nothing.
func TestEventCutDecidesTheSuccessfulAttemptAgain(t *testing.T) {
	h := newHarness(t, nil, 0.5, script(), nil)
	cl, err := h.c.newCall(opGet, nil)
	require.NoError(t, err)
	ctx := context.Background()
	act := cl.Next(ctx, engine.Event{Kind: engine.EventStart})
	require.Equal(t, engine.Action{Kind: engine.ActionSend, Attempt: 1}, act)
	act = cl.Next(ctx, engine.Event{Kind: engine.EventResponse, Result: &engine.AttemptResult{StatusCode: 200, Sent: true}})
	require.Equal(t, engine.ActionReturn, act.Kind)
	require.NoError(t, act.Err)
	cut := &engine.AttemptResult{StatusCode: 200, Sent: true, Err: io.ErrUnexpectedEOF, StreamRetry: 1500 * time.Millisecond}
	act = cl.Next(ctx, engine.Event{Kind: engine.EventCut, Result: cut})
	require.Equal(t, engine.ActionWait, act.Kind)
	require.Equal(t, 1500*time.Millisecond, act.Delay)
	require.Equal(t, "event stream retry field", act.Reason)
	require.Equal(t, engine.OutcomeRetry, act.Decision.Outcome)
	require.Equal(t, engine.ClassTransient, act.Decision.Class)
	require.Equal(t, 486, h.c.RetryQuota().Balance(), "one transient retry paid")
	require.Equal(t, engine.Action{Kind: engine.ActionSend, Attempt: 2}, cl.Next(ctx, engine.Event{Kind: engine.EventWaited}))
	act = cl.Next(ctx, engine.Event{Kind: engine.EventResponse, Result: &engine.AttemptResult{StatusCode: 503, Sent: true, Err: errors.New("503")}})
	require.Equal(t, engine.ActionWait, act.Kind)
	require.Equal(t, engine.Action{Kind: engine.ActionSend, Attempt: 3}, cl.Next(ctx, engine.Event{Kind: engine.EventWaited}))
	act = cl.Next(ctx, engine.Event{Kind: engine.EventResponse, Result: &engine.AttemptResult{StatusCode: 503, Sent: true, Err: errors.New("503")}})
	var ma *MaxAttemptsError
	require.ErrorAs(t, act.Err, &ma)
	require.Equal(t, 3, ma.Attempts)
	again := cl.Next(ctx, engine.Event{Kind: engine.EventCut, Result: cut})
	require.Equal(t, act.Err, again.Err, "a failed call stays failed")
}

// Every error an event stream of a call returns is an *OperationError
// naming the call, as the call's other errors are (new-user trial: an
// *openapi.EventDecodeError and the context's error came bare): a bad
// event (the stream goes on), an event over the size cap, and the
// context's end.
func TestEventStreamErrorsAreOperationErrors(t *testing.T) {
	srv := newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"n\":\"x\"}\n\ndata: {\"n\":2}\n\n")
		writeEvents(w, 3, 3)
		fmt.Fprint(w, "data: 12345678901234567890\n\n")
		w.(http.Flusher).Flush()
	})
	c, _ := loopbackClient(t, testService(), srv.URL, nil)
	s, err := c.Open(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/events"}, nil)
	require.NoError(t, err)
	es := openapi.NewEventStream[sseEvent](s, openapi.EventStreamOptions{MaxEventSize: 20})
	_, err = es.Next(context.Background())
	var oe *OperationError
	require.ErrorAs(t, err, &oe)
	require.Equal(t, "GetThing", oe.Operation)
	var de *openapi.EventDecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, `{"n":"x"}`, de.Raw)
	require.EqualError(t, err, `test: GetThing: decoding server-sent event "message" (id ""): json: cannot unmarshal string into Go struct field sseEvent.n of type int`)
	ev, err := es.Next(context.Background())
	require.NoError(t, err)
	require.Equal(t, 2, ev.Data.N)
	ev, err = es.Next(context.Background())
	require.NoError(t, err)
	require.Equal(t, 3, ev.Data.N)
	_, err = es.Next(context.Background())
	require.EqualError(t, err, "test: GetThing: server-sent event longer than 20 bytes")
	var tooLarge *openapi.EventTooLargeError
	require.ErrorAs(t, err, &tooLarge)

	s, err = c.Open(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/events"}, nil)
	require.NoError(t, err)
	es = openapi.NewEventStream[sseEvent](s, openapi.EventStreamOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = es.Next(ctx)
	require.ErrorIs(t, err, context.Canceled)
	require.EqualError(t, err, "test: GetThing: context canceled")
	_, err = es.Next(context.Background())
	require.EqualError(t, err, "test: GetThing: context canceled", "the error that ended the stream, again")
}

// TestEventStreamWithoutAResumePointEndsInsteadOfRepeating: over a real
// socket, a stream cut with no id fields is not reconnected (the restart
// would deliver 1, 2 again), and a server that ignores Last-Event-ID ends
// the stream at its first repeated event (trial F6: 1,2,1,2,3 before).
func TestEventStreamWithoutAResumePointEndsInsteadOfRepeating(t *testing.T) {
	for _, tc := range []struct {
		name     string
		ids      bool
		requests int
		err      string
	}{
		{"no id fields", false, 1, `test: GetThing: event stream cut after 2 events with no resume point (the last event delivered carried no id field; last event ID ""): reconnecting would deliver events again: unexpected EOF`},
		{"Last-Event-ID ignored", true, 2, `test: GetThing: event stream reconnected with Last-Event-ID "2", but the server sent event ID "1" again (it did not resume after the last event ID): unexpected EOF`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Content-Type", "text/event-stream")
				last := 3
				if n == 1 {
					last = 2
				}
				for i := 1; i <= last; i++ {
					if tc.ids {
						fmt.Fprintf(w, "id: %d\n", i)
					}
					fmt.Fprintf(w, "data: {\"n\":%d}\n\n", i)
				}
				w.(http.Flusher).Flush()
				if n == 1 {
					cut(w, "")
				}
			})
			c, _ := loopbackClient(t, testService(), srv.URL, nil)
			_, es := openEvents(t, c, opGet, http.MethodGet)
			got, err := collect(es)
			require.Equal(t, []int{1, 2}, got, "no event twice")
			require.EqualError(t, err, tc.err)
			var cutErr *openapi.StreamCutError
			require.ErrorAs(t, err, &cutErr)
			seen := srv.seen()
			require.Len(t, seen, tc.requests)
			if tc.ids {
				require.Equal(t, "2", seen[1].Get("Last-Event-ID"))
			}
		})
	}
}

// TestDownloadResumeWhenTheServerIgnoresRange: a resume answered with 200
// and the same strong ETag (the server ignored Range; RFC 9110 §8.8.1: a
// strong validator means the same bytes) continues the download by
// skipping the bytes already read, also when that answer is cut during the
// skip; with only a Last-Modified date (no proof of the same bytes) the
// read fails with a *RangeIgnoredError that says so, not "the
// representation changed" (trial F8).
func TestDownloadResumeWhenTheServerIgnoresRange(t *testing.T) {
	data := []byte("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX") // 60 bytes
	const lastModified = "Tue, 01 Dec 2026 21:00:00 GMT"
	serve := func(etag string, cutSecondAt int) *recordingServer {
		return newRecordingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if etag != "" {
				w.Header().Set("ETag", etag)
			} else {
				w.Header().Set("Last-Modified", lastModified)
			}
			w.Header().Set("Accept-Ranges", "bytes")
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Length", "60")
			switch {
			case n == 1:
				cut(w, string(data[:20]))
			case n == 2 && cutSecondAt > 0:
				cut(w, string(data[:cutSecondAt])) // 200, whole body again, cut during the skip
			default:
				_, _ = w.Write(data) // 200: Range ignored
			}
		})
	}
	for _, tc := range []struct {
		name        string
		etag        string
		cutSecondAt int
		requests    int
		err         string
	}{
		{"strong ETag: the bytes already read are skipped", `"v1"`, 0, 2, ""},
		{"strong ETag, cut again while skipping: resumed from the same byte", `"v1"`, 10, 3, ""},
		{"Last-Modified only: a clear error", "", 0, 2, `test: GetThing: resuming the download at byte 20: the server ignored the Range request (HTTP 200 with the same validator "Tue, 01 Dec 2026 21:00:00 GMT"), and only a strong ETag proves the body is the same bytes`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serve(tc.etag, tc.cutSecondAt)
			c, _ := loopbackClient(t, testService(), srv.URL, nil)
			s, err := c.Open(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/file"}, nil)
			require.NoError(t, err)
			got, err := io.ReadAll(s)
			require.NoError(t, s.Close())
			seen := srv.seen()
			require.Len(t, seen, tc.requests)
			for _, h := range seen[1:] {
				require.Equal(t, "bytes=20-", h.Get("Range"))
			}
			if tc.err == "" {
				require.NoError(t, err)
				require.Equal(t, string(data), string(got), "one complete body")
				return
			}
			require.EqualError(t, err, tc.err)
			var ignored *RangeIgnoredError
			require.ErrorAs(t, err, &ignored)
			require.Equal(t, RangeIgnoredError{Offset: 20, StatusCode: 200, Validator: lastModified}, *ignored)
			require.Equal(t, string(data[:20]), string(got), "the bytes before the cut only")
		})
	}
}
