package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// Streaming groups: each client holds one long-lived stream, a call whose
// 2xx stays open. When a phase drops every stream, each one's call gets
// engine.EventCut (the body broke off) and reconnects as its next attempt:
// the runtime's state machine decides the wait (full jitter, the retry
// quota, max attempts), as it does in runtime.Stream.Resume. Nothing of
// that order is restated here.

// streamState is a streaming call's state.
type streamState struct {
	// open: its 2xx arrived and it is being read.
	open bool
	// dropped: it was cut at droppedAt and has not reconnected yet;
	// attemptsAtDrop is its attempt count then.
	dropped        bool
	droppedAt      time.Duration
	attemptsAtDrop int
}

// streamStats is what a run measured of its streams.
type streamStats struct {
	// opened counts streams that first opened; drops the cuts; reconnected
	// the cut streams that opened again; lost those whose call ended with
	// an error, by the error's type (lostBy).
	opened, drops, reconnected, lost int64
	lostBy                           map[string]int64
	// reconnectAttempts counts the attempts the reconnects made, of
	// streams reconnected or lost.
	reconnectAttempts int64
	// firstWait is the wait before each cut stream's first reconnect
	// attempt (the jitter); recovered the time from the cut to the stream
	// open again.
	firstWait, recovered histogram
	firstWaits           []time.Duration
}

// scheduleDrops plans an evDrop at the start of every phase that drops the
// streams.
func (r *run) scheduleDrops() {
	var start time.Duration
	for i, p := range r.sc.Phases {
		if p.DropStreams {
			r.schedule(event{at: start, kind: evDrop})
		}
		start = r.phaseEnds[i]
	}
}

// streamOpen records a streaming call whose attempt succeeded: the stream
// is open (again).
func (r *run) streamOpen(c *call) {
	st, s := &c.stream, &r.stats.streams
	if st.dropped {
		s.reconnected++
		s.reconnectAttempts += int64(c.attempts - st.attemptsAtDrop)
		s.recovered.add(r.now - st.droppedAt)
	} else {
		s.opened++
	}
	st.open, st.dropped = true, false
	r.open = append(r.open, c)
}

// errCut is the read error of a dropped stream.
var errCut = fmt.Errorf("stream dropped by the server: %w", io.ErrUnexpectedEOF)

// dropStreams cuts every open stream at once: each call is told its body
// broke off (engine.EventCut) and does what its state machine says.
func (r *run) dropStreams() {
	open := r.open
	r.open = nil
	for _, c := range open {
		c.stream = streamState{dropped: true, droppedAt: r.now, attemptsAtDrop: c.attempts}
		r.stats.streams.drops++
		res := engine.AttemptResult{StatusCode: http.StatusOK, Err: errCut, Sent: true}
		act := c.rc.Next(c.ctx(), engine.Event{Kind: engine.EventCut, Result: &res})
		if act.Kind == engine.ActionWait {
			r.stats.streams.firstWait.add(act.Delay)
			r.stats.streams.firstWaits = append(r.stats.streams.firstWaits, act.Delay)
		}
		r.drive(c, act)
	}
}

// streamLost records a streaming call that ended with err.
func (r *run) streamLost(c *call, err error) {
	s := &r.stats.streams
	s.lost++
	s.reconnectAttempts += int64(c.attempts - c.stream.attemptsAtDrop)
	if s.lostBy == nil {
		s.lostBy = map[string]int64{}
	}
	s.lostBy[errorKind(err)]++
}

// errorKind names the runtime error type that ended a call.
func errorKind(err error) string {
	var (
		ma *runtime.MaxAttemptsError
		qe *runtime.QuotaExhaustedError
	)
	switch {
	case errors.As(err, &qe):
		return "retry quota exhausted"
	case errors.As(err, &ma):
		return "max attempts"
	}
	return "other"
}

// closeStreams ends the streams still open when the run ends: their calls
// succeeded.
func (r *run) closeStreams() {
	for _, c := range r.open {
		r.markDone(c)
		r.stats.callEnded(r, c, true)
	}
	r.open = nil
}

// writeStreamReport writes the report's section on streams, when the
// scenario has streaming groups.
func writeStreamReport(b *bytes.Buffer, sc *Scenario, runs []*runStats) {
	if !slices.ContainsFunc(sc.Clients, func(g ClientGroup) bool { return g.Streaming }) {
		return
	}
	b.WriteString("\n## Streams: drops and reconnects\n\n")
	b.WriteString("Each streaming client holds one long-lived stream; a phase with dropStreams cuts every open stream at once, " +
		"and each reconnects as the next attempt of its call (engine.EventCut, as runtime.Stream.Resume does). " +
		"First wait = the wait before a cut stream's first reconnect attempt (full jitter spreads them); " +
		"recovered = time from the cut to the stream open again; lost = streams whose call ended with an error.\n\n")
	b.WriteString("| mode | streams | drops | reconnected | reconnect attempts | first wait p10 | p50 | p90 | max | recovered p50 | p99 | lost |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range runs {
		s := &r.streams
		w := slices.Sorted(slices.Values(s.firstWaits))
		q := func(f float64) string {
			if len(w) == 0 {
				return "–"
			}
			return fmt.Sprintf("%.1f ms", float64(w[min(len(w)-1, int(f*float64(len(w))))])/float64(time.Millisecond))
		}
		lost := fmt.Sprint(s.lost)
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range s.lostBy {
				if !yield(k) {
					return
				}
			}
		}) {
			lost += fmt.Sprintf(", %s %d", k, s.lostBy[k])
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s |\n", r.label, s.opened, s.drops, s.reconnected,
			s.reconnectAttempts, q(0.1), q(0.5), q(0.9), q(1), dur(s.recovered.quantile(0.5)), dur(s.recovered.quantile(0.99)), lost)
	}
}
