package openapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"
)

// ev is an event without its decoded data, for comparing.
type ev struct {
	Type, ID, Raw string
	Retry         time.Duration
}

// readAll reads every event of stream as text, through Next, and returns
// them with the error that ended the stream.
func readAll(t *testing.T, body io.Reader, opts EventStreamOptions) ([]ev, error) {
	t.Helper()
	s := NewEventStream[string](io.NopCloser(body), opts)
	var out []ev
	for {
		e, err := s.Next(context.Background())
		if err != nil {
			return out, err
		}
		require.Equal(t, e.Raw, e.Data, "a string event receives its data as text")
		out = append(out, ev{e.Type, e.ID, e.Raw, e.Retry})
	}
}

// TestEventStreamParsing checks the WHATWG HTML §9.2.6 rules, the spec's own
// examples first, each stream read whole and one byte per read.
func TestEventStreamParsing(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []ev
	}{
		{"data lines are joined with LF (spec example 1)", "data: YHOO\ndata: +2\ndata: 10\n\n",
			[]ev{{Type: "message", Raw: "YHOO\n+2\n10"}}},
		{"comments ignored, id kept until reset by an empty id (spec example 2)",
			": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n",
			[]ev{{Type: "message", ID: "1", Raw: "first event"}, {Type: "message", Raw: "second event"}, {Type: "message", Raw: " third event"}}},
		{"a data field with no value gives an empty line; the last event, unterminated, is discarded (spec example 3)",
			"data\n\ndata\ndata\n\ndata:", []ev{{Type: "message", Raw: ""}, {Type: "message", Raw: "\n"}}},
		{"one space after the colon is removed (spec example 4)", "data:test\n\ndata: test\n\n",
			[]ev{{Type: "message", Raw: "test"}, {Type: "message", Raw: "test"}}},
		{"CRLF and CR end lines too", "event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\r",
			[]ev{{Type: "a", Raw: "1"}, {Type: "b", Raw: "2"}}},
		{"a leading byte order mark is skipped", "\xEF\xBB\xBFdata: x\n\n", []ev{{Type: "message", Raw: "x"}}},
		{"only the first byte order mark is skipped", "\xEF\xBB\xBF\xEF\xBB\xBFdata: x\n\ndata: y\n\n", []ev{{Type: "message", Raw: "y"}}},
		{"an event with no data is not delivered, and its type does not leak", "event: ping\n\ndata: x\n\n", []ev{{Type: "message", Raw: "x"}}},
		{"retry: all digits sets the reconnection time; anything else is ignored",
			"retry: 1500\ndata: a\n\nretry: 15x\ndata: b\n\nretry:\ndata: c\n\nretry: 20\ndata: d\n\n",
			[]ev{{Type: "message", Raw: "a", Retry: 1500 * time.Millisecond}, {Type: "message", Raw: "b", Retry: 1500 * time.Millisecond},
				{Type: "message", Raw: "c", Retry: 1500 * time.Millisecond}, {Type: "message", Raw: "d", Retry: 20 * time.Millisecond}}},
		{"an overflowing retry is the longest wait, never ignored (retry-behavior.md §5)",
			"retry: 99999999999999\ndata: a\n\nretry: 1500\ndata: b\n\nretry: 99999999999999999999999\ndata: c\n\n",
			[]ev{{Type: "message", Raw: "a", Retry: time.Duration(math.MaxInt64)}, {Type: "message", Raw: "b", Retry: 1500 * time.Millisecond},
				{Type: "message", Raw: "c", Retry: time.Duration(math.MaxInt64)}}},
		{"an id containing NUL is ignored", "id: 7\ndata: a\n\nid: 8\x009\ndata: b\n\n",
			[]ev{{Type: "message", ID: "7", Raw: "a"}, {Type: "message", ID: "7", Raw: "b"}}},
		{"unknown fields and a field without colon are ignored", "foo: bar\nevent\ndata: a\n\n", []ev{{Type: "message", Raw: "a"}}},
		{"the sentinel ends the stream", "data: a\n\ndata: [DONE]\n\ndata: b\n\n", []ev{{Type: "message", Raw: "a"}}},
		{"an empty stream has no events", "", nil},
	} {
		for _, oneByte := range []bool{false, true} {
			name := tc.name
			var r io.Reader = strings.NewReader(tc.in)
			if oneByte {
				name += " (one byte per read)"
				r = iotest.OneByteReader(r)
			}
			t.Run(name, func(t *testing.T) {
				got, err := readAll(t, r, EventStreamOptions{Sentinel: DoneSentinel})
				require.ErrorIs(t, err, io.EOF)
				require.Equal(t, tc.want, got)
			})
		}
	}
}

// chunk is a JSON event payload.
type chunk struct {
	ID    string `json:"id"`
	Delta string `json:"delta"`
}

func TestEventStreamDecodesJSONAndKeepsGoingAfterABadEvent(t *testing.T) {
	in := "event: delta\nid: 1\ndata: {\"id\":\"c1\",\"delta\":\"Hel\"}\n\ndata: {not json}\n\ndata: {\"id\":\"c1\",\n" +
		"data: \"delta\":\"lo\"}\n\ndata: [DONE]\n\n"
	s := NewEventStream[chunk](io.NopCloser(strings.NewReader(in)), EventStreamOptions{Sentinel: DoneSentinel})
	var got []chunk
	var errs []error
	for e, err := range s.All(context.Background()) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, e.Data)
	}
	require.Equal(t, []chunk{{"c1", "Hel"}, {"c1", "lo"}}, got)
	require.Len(t, errs, 1)
	var de *EventDecodeError
	require.ErrorAs(t, errs[0], &de)
	require.Equal(t, "message", de.Type)
	require.Equal(t, "1", de.ID)
	require.Equal(t, "{not json}", de.Raw)
}

func TestEventStreamCapsEventSize(t *testing.T) {
	in := "data: " + strings.Repeat("x", 100) + "\n\n"
	_, err := readAll(t, strings.NewReader(in), EventStreamOptions{MaxEventSize: 64})
	var tl *EventTooLargeError
	require.ErrorAs(t, err, &tl)
	require.Equal(t, 64, tl.Limit)
}

// closeRecorder is a body whose Close unblocks a pending Read.
type closeRecorder struct {
	*io.PipeReader
	closed chan struct{}
}

func (c *closeRecorder) Close() error {
	close(c.closed)
	return c.PipeReader.Close()
}

func TestEventStreamContextEndClosesTheBody(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	body := &closeRecorder{pr, make(chan struct{})}
	s := NewEventStream[string](body, EventStreamOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { _, _ = pw.Write([]byte("data: a\n\n")) }()
	e, err := s.Next(ctx)
	require.NoError(t, err)
	require.Equal(t, "a", e.Data)
	done := make(chan error)
	go func() { _, err := s.Next(ctx); done <- err }()
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	<-body.closed
	_, err = s.Next(context.Background())
	require.ErrorIs(t, err, context.Canceled, "the stream stays ended")
}

// resumable is a body that breaks off after its first script and, on
// Resume, continues with the next one.
type resumable struct {
	scripts []string
	cur     io.Reader
	calls   []resumeCall
}

type resumeCall struct {
	cause       string
	lastEventID string
	retry       time.Duration
}

func (r *resumable) Read(p []byte) (int, error) {
	if r.cur == nil {
		r.cur, r.scripts = strings.NewReader(r.scripts[0]), r.scripts[1:]
	}
	n, err := r.cur.Read(p)
	if err == io.EOF && len(r.scripts) > 0 {
		return n, io.ErrUnexpectedEOF // cut, more to come on reconnect
	}
	return n, err
}

func (r *resumable) Close() error { return nil }

func (r *resumable) Resume(_ context.Context, cause error, h http.Header, retry time.Duration) error {
	r.calls = append(r.calls, resumeCall{cause.Error(), h.Get("Last-Event-ID"), retry})
	r.cur = nil
	return nil
}

func TestEventStreamResumesWithLastEventIDAndDropsThePartialEvent(t *testing.T) {
	body := &resumable{scripts: []string{
		"retry: 1500\nid: 1\ndata: a\n\nid: 2\ndata: b\n\nid: 3\ndata: partial",
		"\xEF\xBB\xBFid: 3\ndata: c\n\n",
	}}
	s := NewEventStream[string](body, EventStreamOptions{})
	var got []string
	for e, err := range s.All(context.Background()) {
		require.NoError(t, err)
		got = append(got, e.ID+"="+e.Data)
	}
	require.Equal(t, []string{"1=a", "2=b", "3=c"}, got)
	require.Equal(t, []resumeCall{{io.ErrUnexpectedEOF.Error(), "2", 1500 * time.Millisecond}}, body.calls)
}

func TestEventStreamReturnsTheErrorThatEndsAResume(t *testing.T) {
	end := errors.New("max attempts")
	body := &failingResume{resumable{scripts: []string{"id: 1\ndata: a\n\n", "unused"}}, end}
	s := NewEventStream[json.RawMessage](body, EventStreamOptions{})
	e, err := s.Next(context.Background())
	require.NoError(t, err)
	require.Equal(t, json.RawMessage("a"), e.Data)
	_, err = s.Next(context.Background())
	require.ErrorIs(t, err, end)
}

type failingResume struct {
	resumable
	err error
}

func (f *failingResume) Resume(context.Context, error, http.Header, time.Duration) error {
	return f.err
}

// TestEventStreamNeverDeliversAnEventTwice: a reconnect happens only from a
// resume point (the last event delivered carried an id field, or nothing
// was delivered yet), and a server that does not resume after Last-Event-ID
// ends the stream instead of having its events delivered twice.
func TestEventStreamNeverDeliversAnEventTwice(t *testing.T) {
	for _, tc := range []struct {
		name    string
		scripts []string
		want    []string
		err     string // "" means the stream ends cleanly
		calls   []resumeCall
	}{
		{"no id field: the stream is cut, not restarted",
			[]string{"data: 1\n\ndata: 2\n\n", "data: 1\n\ndata: 2\n\ndata: 3\n\n"},
			[]string{"=1", "=2"},
			"event stream cut after 2 events with no resume point (the last event delivered carried no id field; last event ID \"\"): reconnecting would deliver events again: unexpected EOF",
			nil},
		{"the last event carried no id field: resuming from the id before it would repeat it",
			[]string{"id: 1\ndata: 1\n\ndata: 2\n\n", "id: 2\ndata: 2\n\n"},
			[]string{"1=1", "1=2"},
			"event stream cut after 2 events with no resume point (the last event delivered carried no id field; last event ID \"1\"): reconnecting would deliver events again: unexpected EOF",
			nil},
		{"a server that ignores Last-Event-ID and starts over",
			[]string{"id: 1\ndata: 1\n\nid: 2\ndata: 2\n\n", "id: 1\ndata: 1\n\nid: 2\ndata: 2\n\nid: 3\ndata: 3\n\n"},
			[]string{"1=1", "2=2"},
			"event stream reconnected with Last-Event-ID \"2\", but the server sent event ID \"1\" again (it did not resume after the last event ID): unexpected EOF",
			[]resumeCall{{"unexpected EOF", "2", 0}}},
		{"a server that repeats the last event",
			[]string{"id: 1\ndata: 1\n\nid: 2\ndata: 2\n\n", "id: 2\ndata: 2\n\nid: 3\ndata: 3\n\n"},
			[]string{"1=1", "2=2"},
			"event stream reconnected with Last-Event-ID \"2\", but the server sent event ID \"2\" again (it did not resume after the last event ID): unexpected EOF",
			[]resumeCall{{"unexpected EOF", "2", 0}}},
		{"a first event without an id field after the reconnect cannot be told from a repeat",
			[]string{"id: 1\ndata: 1\n\n", "data: 1\n\n"},
			[]string{"1=1"},
			"event stream reconnected with Last-Event-ID \"1\", but the server's first event carried no id field, so it may repeat an event already delivered: unexpected EOF",
			[]resumeCall{{"unexpected EOF", "1", 0}}},
		{"cut before any event: a restart repeats nothing",
			[]string{": hello\n\ndata: partial", "data: 1\n\ndata: 2\n\n"},
			[]string{"=1", "=2"}, "",
			[]resumeCall{{"unexpected EOF", "", 0}}},
		{"an id-only event after the data is a resume point",
			[]string{"data: 1\n\nid: 1\n\n", "id: 2\ndata: 2\n\n"},
			[]string{"=1", "2=2"}, "",
			[]resumeCall{{"unexpected EOF", "1", 0}}},
		{"a server that resumes after Last-Event-ID; a [DONE] without an id ends it",
			[]string{"id: 1\ndata: 1\n\n", "id: 2\ndata: 2\n\n", "data: [DONE]\n\n"},
			[]string{"1=1", "2=2"}, "",
			[]resumeCall{{"unexpected EOF", "1", 0}, {"unexpected EOF", "2", 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := &resumable{scripts: tc.scripts}
			s := NewEventStream[string](body, EventStreamOptions{Sentinel: DoneSentinel})
			var got []string
			var err error
			for e, ierr := range s.All(context.Background()) {
				if ierr != nil {
					err = ierr
					break
				}
				got = append(got, e.ID+"="+e.Data)
			}
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.calls, body.calls)
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tc.err)
			var cut *StreamCutError
			require.ErrorAs(t, err, &cut)
			require.ErrorIs(t, err, io.ErrUnexpectedEOF)
		})
	}
}
