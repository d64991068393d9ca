package runtime

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// A call with the client's options, or with a copy of them as generated
// clients pass on every call, shares the operation's policy, resolved once;
// a call whose options change the policy gets its own.
func TestCallsShareTheOperationPolicy(t *testing.T) {
	c, err := NewClient(testService(), "http://svc.test", Options{RetryMode: ModeStandard})
	require.NoError(t, err)
	first, err := c.newCall(opGet, nil)
	require.NoError(t, err)
	again, err := c.newCall(opGet, nil)
	require.NoError(t, err)
	require.Same(t, first.pol, again.pol, "the client's options")
	o := c.Options()
	copied, err := c.newCall(opGet, &o)
	require.NoError(t, err)
	require.Same(t, first.pol, copied.pol, "a copy of the client's options")
	other, err := c.newCall(opPost, &o)
	require.NoError(t, err)
	require.NotSame(t, first.pol, other.pol, "another operation")
	require.False(t, other.pol.RetrySafe)

	o.MaxBackoff = 3 * time.Second
	own, err := c.newCall(opGet, &o)
	require.NoError(t, err)
	require.NotSame(t, first.pol, own.pol)
	require.Equal(t, 3*time.Second, own.pol.Params.MaxBackoff)
	require.Equal(t, 20*time.Second, first.pol.Params.MaxBackoff)
}

// sharesPolicy must name every call option resolvePolicy reads: for each
// field of Options set on a copy of the client's options, either the call
// gets a policy of its own, or the policy resolved with the copy equals the
// shared one. A new call option read by resolvePolicy but not compared by
// sharesPolicy fails here.
func TestSharedPolicyReadsEveryCallOption(t *testing.T) {
	svc := testService()
	c, err := NewClient(svc, "http://svc.test", Options{RetryMode: ModeAdaptive, TransientCodes: []string{"A"}})
	require.NoError(t, err)
	shared := resolvePolicy(c.settings, svc, opGet, &c.opts, &c.opts)
	typ := reflect.TypeFor[Options]()
	checked := 0
	for i := range typ.NumField() {
		f := typ.Field(i)
		call := c.opts
		v := reflect.ValueOf(&call).Elem().Field(i)
		if !changeOption(t, f, v) {
			continue // resolvePolicy reads no interface-typed option
		}
		checked++
		if !c.sharesPolicy(&call) {
			continue
		}
		s, err := c.settings.WithCall(svc, &call)
		require.NoError(t, err, f.Name)
		got := resolvePolicy(s, svc, opGet, &c.opts, &call)
		require.True(t, reflect.DeepEqual(shared, got), "Options.%s changes the policy but sharesPolicy does not compare it", f.Name)
	}
	require.Greater(t, checked, 20)
}

// A call that must change its policy (a request body too long to replay
// allows one attempt) changes its own copy: the next call of the operation
// still retries.
func TestOwnPolicyLeavesTheSharedOneAlone(t *testing.T) {
	h := newHarness(t, nil, 0, script(status(503), status(503), status(200)), nil)
	big := &Request{Method: http.MethodPut, Path: "/f", BodyReader: &onceReader{r: strings.NewReader(strings.Repeat("b", MaxReplayBody+1)), t: t}}
	md, err := h.c.Do(context.Background(), opGet, big, nil, nil)
	require.Error(t, err)
	require.Equal(t, 1, md.Attempts)
	md, err = h.c.Do(context.Background(), opGet, &Request{Method: http.MethodGet, Path: "/f"}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 2, md.Attempts)
}

// StartCall starts a new call in an ended call's memory: nothing of the
// earlier call (attempts, state, error) carries over. A call NewCall did
// not return is refused.
func TestStartCallReusesAnEndedCall(t *testing.T) {
	c, err := NewClient(testService(), "http://svc.test", Options{RetryMode: ModeStandard, MaxAttempts: 2, Rand: func() float64 { return 0 }})
	require.NoError(t, err)
	require.EqualError(t, c.StartCall(nil, opGet, nil), "runtime: Client.StartCall: <nil> is not a call Client.NewCall returned nor a *runtime.CallState")
	cl, err := c.NewCall(opPost, nil)
	require.NoError(t, err)
	ctx := context.Background()
	failed := engine.AttemptResult{StatusCode: 500, Sent: true, Err: &APIError{ErrorMetadata: ErrorMetadata{HTTPStatusCode: 500}}}
	for range 2 {
		require.NoError(t, c.StartCall(cl, opGet, nil))
		require.Equal(t, engine.ActionSend, cl.Next(ctx, engine.Event{Kind: engine.EventStart}).Kind)
		act := cl.Next(ctx, engine.Event{Kind: engine.EventResponse, Result: &failed})
		require.Equal(t, engine.ActionWait, act.Kind, "attempt 1 of 2 is retried")
		require.Equal(t, engine.ActionSend, cl.Next(ctx, engine.Event{Kind: engine.EventWaited}).Kind)
		act = cl.Next(ctx, engine.Event{Kind: engine.EventResponse, Result: &failed})
		require.Equal(t, engine.ActionReturn, act.Kind)
		var mae *MaxAttemptsError
		require.ErrorAs(t, act.Err, &mae)
		require.Equal(t, 2, mae.Attempts)
	}
}

// A CallState is the state machine NewCall returns, in the driver's
// memory: driven with the same events it answers the same actions, and it
// is reused like an ended call. Its zero value and a nil one hold no call.
func TestCallStateDrivesTheSameStateMachine(t *testing.T) {
	c, err := NewClient(testService(), "http://svc.test", Options{RetryMode: ModeStandard, MaxAttempts: 3, Rand: func() float64 { return 0.5 }})
	require.NoError(t, err)
	ctx := context.Background()
	var zero CallState
	act := zero.Next(ctx, engine.Event{Kind: engine.EventStart})
	require.Equal(t, engine.ActionReturn, act.Kind)
	require.EqualError(t, act.Err, "runtime: CallState.Next: no call started (Client.StartCall)")
	require.EqualError(t, c.StartCall((*CallState)(nil), opGet, nil), "runtime: Client.StartCall: *runtime.CallState is not a call Client.NewCall returned nor a *runtime.CallState")
	failed := engine.AttemptResult{StatusCode: 503, Sent: true, Err: &APIError{ErrorMetadata: ErrorMetadata{HTTPStatusCode: 503}}}
	ok := engine.AttemptResult{StatusCode: 200, Sent: true}
	drive := func(call engine.Call) []engine.Action {
		acts := []engine.Action{call.Next(ctx, engine.Event{Kind: engine.EventStart})}
		acts = append(acts, call.Next(ctx, engine.Event{Kind: engine.EventResponse, Result: &failed}))
		acts = append(acts, call.Next(ctx, engine.Event{Kind: engine.EventWaited}))
		return append(acts, call.Next(ctx, engine.Event{Kind: engine.EventResponse, Result: &ok}))
	}
	byNewCall, err := c.NewCall(opGet, nil)
	require.NoError(t, err)
	want := drive(byNewCall)
	require.Equal(t, []engine.ActionKind{engine.ActionSend, engine.ActionWait, engine.ActionSend, engine.ActionReturn},
		[]engine.ActionKind{want[0].Kind, want[1].Kind, want[2].Kind, want[3].Kind})
	require.Equal(t, 25*time.Millisecond, want[1].Delay, "full jitter: 0.5 × 50 ms (standard transient base delay × 2^0)")
	var s CallState
	for range 2 { // started anew in the same memory
		require.NoError(t, c.StartCall(&s, opGet, nil))
		require.Equal(t, want, drive(&s))
	}
	require.Equal(t, 2, s.m.attempts)
}

// The first operation's policy is held beside the fields every call reads
// (Client.first); the others in the map. Each is
// resolved once and shared by every later call. Calls racing on a client's
// first operations get equal policies (under -race: no data race).
func TestFirstOperationPolicyInTheClient(t *testing.T) {
	c, err := NewClient(testService(), "http://svc.test", Options{RetryMode: ModeStandard})
	require.NoError(t, err)
	var wg sync.WaitGroup
	pols := make([][2]*Policy, 8)
	for i := range pols {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pols[i] = [2]*Policy{c.operationPolicy(opGet), c.operationPolicy(opPost)}
		}()
	}
	wg.Wait()
	for _, p := range pols {
		require.True(t, reflect.DeepEqual(*pols[0][0], *p[0]))
		require.True(t, reflect.DeepEqual(*pols[0][1], *p[1]))
	}
	first := c.first.Load()
	require.NotNil(t, first)
	require.Same(t, first, c.sharedPolicy(first.op), "the first operation resolved is the one clients share")
	get, post := c.operationPolicy(opGet), c.operationPolicy(opPost)
	require.Same(t, get, c.operationPolicy(opGet), "every later call shares it")
	require.Same(t, post, c.operationPolicy(opPost))
	if first.op == opGet {
		require.Same(t, &first.pol, get)
	} else {
		require.Same(t, &first.pol, post)
	}
	require.True(t, get.RetrySafe)
	require.False(t, post.RetrySafe)
}

// Clients with the same options share their first operation's policy
// (sharedPolicy); options that change it, or set Classify or Backoff, give
// a client its own.
func TestClientsShareAPolicy(t *testing.T) {
	svc := testService()
	codes := []string{"X"}
	newClient := func(o Options) *Client {
		o.RetryMode, o.TransientCodes = ModeStandard, codes
		c, err := NewClient(svc, "http://svc.test", o)
		require.NoError(t, err)
		return c
	}
	a, b := newClient(Options{}), newClient(Options{ThrottleIdentity: "b", Rand: func() float64 { return 0.5 }})
	require.Same(t, a.operationPolicy(opGet), b.operationPolicy(opGet), "same options: one policy")
	slow := newClient(Options{MaxBackoff: 3 * time.Second})
	require.NotSame(t, a.operationPolicy(opGet), slow.operationPolicy(opGet))
	require.Equal(t, 3*time.Second, slow.operationPolicy(opGet).Params.MaxBackoff)
	require.Equal(t, 20*time.Second, a.operationPolicy(opGet).Params.MaxBackoff)
	own := newClient(Options{Backoff: func(int, error) time.Duration { return time.Second }})
	ownPol := own.operationPolicy(opGet)
	require.Same(t, &own.first.Load().pol, ownPol, "Backoff set: the client's own")
	require.NotSame(t, a.operationPolicy(opGet), ownPol, "Backoff set: not shared")
	other, err := NewClient(svc, "http://svc.test", Options{RetryMode: ModeStandard, TransientCodes: []string{"X"}})
	require.NoError(t, err)
	require.NotSame(t, a.operationPolicy(opGet), other.operationPolicy(opGet), "code lists compare by identity")
}

// policyKey must hold every client option resolvePolicy reads: for each
// field of Options set on a second client, either the key differs or the
// policy the second client resolves equals the first's. A new option read
// by resolvePolicy but missing from policyKey fails here.
func TestPolicyKeyReadsEveryClientOption(t *testing.T) {
	svc := testService()
	base := Options{RetryMode: ModeAdaptive, TransientCodes: []string{"A"}}
	a, err := NewClient(svc, "http://svc.test", base)
	require.NoError(t, err)
	want := resolvePolicy(a.settings, svc, opGet, &a.opts, &a.opts)
	typ := reflect.TypeFor[Options]()
	checked := 0
	for i := range typ.NumField() {
		f := typ.Field(i)
		o := base
		v := reflect.ValueOf(&o).Elem().Field(i)
		if !changeOption(t, f, v) {
			continue // resolvePolicy reads no interface-typed option
		}
		if f.Name == "RetryMode" {
			v.SetString(string(ModeStandard)) // a mode NewClient accepts
		}
		b, err := NewClient(svc, "http://svc.test", o)
		if err != nil {
			continue // an option NewClient refuses (Endpoint)
		}
		checked++
		shared := b.sharedPolicy(opGet)
		if shared == nil || shared != a.sharedPolicy(opGet) {
			continue
		}
		got := resolvePolicy(b.settings, svc, opGet, &b.opts, &b.opts)
		require.True(t, reflect.DeepEqual(want, got), "Options.%s changes the policy but policyKey does not hold it", f.Name)
	}
	require.Greater(t, checked, 20)
}

// changeOption sets v, the Options field f, to a value other than its own:
// a bool flipped, a number plus 7, a string plus "x", a slice, pointer or
// func made non-nil. It returns false, changing nothing, for an interface
// field, and fails t for a kind it does not cover.
func changeOption(t *testing.T, f reflect.StructField, v reflect.Value) bool {
	t.Helper()
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int64:
		v.SetInt(v.Int() + 7)
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Slice:
		v.Set(reflect.Append(reflect.MakeSlice(f.Type, 0, 1), reflect.Zero(f.Type.Elem())))
	case reflect.Pointer:
		v.Set(reflect.New(f.Type.Elem()))
	case reflect.Func:
		v.Set(reflect.MakeFunc(f.Type, func([]reflect.Value) []reflect.Value { panic("not called") }))
	case reflect.Interface:
		return false
	default:
		t.Fatalf("Options.%s: kind %s not covered by this test", f.Name, v.Kind())
	}
	return true
}

// The fields a step of the state machine reads or writes (through endpoint)
// lie in its first two cache lines, which cmd/retrygen-sim reads ahead for
// each of its calls (hotCallBytes); ResponseMetadata.Attempts is the
// attempts decided, though md, after them, no longer keeps a copy.
func TestCallMachineStepFieldsFirst(t *testing.T) {
	require.LessOrEqual(t, unsafe.Offsetof(callMachine{}.endpoint)+unsafe.Sizeof(callMachine{}.endpoint), uintptr(128))
	cl := callMachine{attempts: 3, md: ResponseMetadata{RequestID: "r"}}
	require.Equal(t, ResponseMetadata{Attempts: 3, RequestID: "r"}, cl.metadata())
}

// The Client fields a step reads lie in its first two cache lines (the
// scope's identity too: callMachine.scope reads it with the fleet budget),
// those a call's start reads in its first three (cmd/retrygen-sim reads
// them ahead: stepClientBytes, hotClientBytes).
func TestClientStepFieldsFirst(t *testing.T) {
	var c Client
	require.LessOrEqual(t, unsafe.Offsetof(c.scope)+unsafe.Sizeof(c.scope), uintptr(128))
	require.LessOrEqual(t, unsafe.Offsetof(c.costs)+unsafe.Sizeof(c.costs), uintptr(128))
	require.LessOrEqual(t, unsafe.Offsetof(c.invocationIDHeader)+unsafe.Sizeof(c.invocationIDHeader), uintptr(192))
}
