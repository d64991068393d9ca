package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/retrygen/retrygen/runtime/internal/querymark"
)

// Request is one call's HTTP request, built once by generated code and
// replayed on every attempt.
type Request struct {
	// Method is the HTTP method ("POST").
	Method string
	// Path is the request path, parameters already expanded and escaped,
	// joined to the endpoint's path ("/" for AWS JSON services). It may end
	// in bare query flags ("/b?tagging", S3's subresources): Query is then
	// appended after them with "&". The path must be empty or start with "/"
	// and hold no "." or ".." segment, or Do refuses the call before the
	// first attempt (*InvalidParamsError): a request never leaves the
	// endpoint's scheme, host and port.
	Path string
	// Query holds query parameters, added to the endpoint's.
	Query url.Values
	// Header holds request headers (e.g. X-Amz-Target). The runtime never
	// writes it: each attempt sends its own copy, to which the runtime adds
	// Content-Type, Accept-Encoding, the attempt header, the invocation ID header,
	// x-sdk-throttling-control and the debug header, and which
	// BeforeAttempt may change for that attempt only.
	Header http.Header
	// Body is sent on every attempt byte for byte; nil sends no body.
	Body []byte
	// BodyReader, when set, supplies the body instead of Body. An
	// io.Seeker is streamed, never buffered, and rewound to where it
	// started before every retry (one whose first Seek fails, a pipe, is
	// read as a reader that cannot seek). Otherwise the runtime reads it before
	// the first attempt: up to MaxReplayBody (8 MiB) it is buffered into
	// Body and replayed on retries; a longer body is streamed once and the
	// call makes a single attempt (a failure that would have been retried
	// returns a *NotRetrySafeError: it cannot be replayed).
	// When it is an io.Closer the runtime closes it when the call has sent
	// its last attempt, as net/http closes request bodies.
	BodyReader io.Reader
	// GetBody, when set, supplies the body of every attempt, a fresh reader
	// each time, and Body and BodyReader are not read: the body is streamed
	// and replayed on retries (http.Request.GetBody's contract). An error
	// ends the call.
	GetBody func() (io.ReadCloser, error)
	// stream is the unbuffered remainder of a BodyReader longer than
	// MaxReplayBody, sent by the call's only attempt.
	stream io.Reader
	// seek replays a BodyReader that is an io.Seeker (replay.go).
	seek *seekBody
	// ContentType is the body's media type
	// ("application/x-amz-json-1.0").
	ContentType string
	// declared is the Content-Length Header declares when hasDeclared
	// (contentlength.go).
	declared    int64
	hasDeclared bool
}

// ResponseMetadata describes how a call went. Generated output types carry it
// as ResultMetadata.
type ResponseMetadata struct {
	// Attempts is the number of attempts made, counting the first.
	Attempts int
	// RequestID is the last response's request ID, if any.
	RequestID string
	// Throttle is the quota the last response reported in its throttle
	// headers (§8), if the service declares them.
	Throttle engine.ThrottleHeaders
	// Body is the raw bytes of the response body a generated operation
	// decoded (set by the generated code with [DecodeJSONKeep], or
	// openapi.DecodeXML and DecodeXMLResult for XML bodies), so members
	// the spec does not declare stay reachable; nil when there was none. It
	// holds what the decoder read, so it is bounded by the decode cap.
	Body []byte
	// Header is the last response's header map, as received (nil when no
	// response arrived): every header, declared by the spec or not
	// (ETag, Link, rate-limit headers). Read-only: it is the response's
	// own map.
	Header http.Header
}

// Client holds one generated client's retry state: the resolved settings,
// the retry quota, the adaptive rate limiter and the throttle-window store.
// It is safe for concurrent use.
type Client struct {
	// The fields every step of a call reads come first, in two cache
	// lines (the second: the retry costs and the scope's identity), then
	// those a call's start reads (a third): a driver of many clients
	// (cmd/retrygen-sim) touches two or three lines of each. A client holds no Policy of its
	// own (1,064 bytes, was 2,144): clients with the same options share
	// their first operation's (first).
	clock engine.Clock
	rand  func() float64
	quota *engine.RetryQuota
	// scope is the client's host scope (scopeTo its endpoint host): the
	// throttle-window identity, Options.FleetRetryBudget (nil for none)
	// and the adaptive-mode client-side rate limiter (§6; the host's
	// shared one, else the client's own, disabled until the first
	// throttling response). Every step reads it (callMachine.scope).
	scope hostScope
	// first is the policy of the first operation operationPolicy resolved
	// (firstClaimed: written): the one clients with the same options share
	// (sharedPolicy), else the client's own; the others are in policies.
	first atomic.Pointer[opPolicy]
	// costs are the retry costs and success increment (§5).
	costs        retryCosts
	firstClaimed atomic.Bool
	// observed: the client's options set a Logger or OnAttempt, which
	// every decision is reported to (callMachine.observe).
	observed bool
	svc      *Service
	// invocationIDHeader is svc.InvocationIDHeader in canonical form.
	invocationIDHeader string
	windows            engine.ThrottleWindowStore
	// base is the endpoint without a trailing slash; baseQuery its query.
	base      string
	baseQuery url.Values
	opts      Options
	// settings are the client-level resolution of mode and max attempts
	// (levels 2–6 of §2); each call resolves its Policy on top of them.
	settings Settings
	// faults are the stores that report falling back to local state.
	faults []engine.StoreFaultReporter
	// requestIDHeaders is svc.RequestIDHeaders in canonical form, so that
	// looking them up on every response allocates nothing.
	requestIDHeaders []string
	// attemptHeader is svc.AttemptHeader in canonical form ("" for none);
	// attemptValues its values for the client's max attempts
	// ("attempt=1; max=4", …), built once.
	attemptHeader string
	attemptValues []string
	// checksumHeader is svc.ChecksumHeader in canonical form.
	checksumHeader string
	// baseSlash is base + "/", the URL of most AWS JSON requests;
	// slashURL and slashHost are what http.NewRequest parses it into
	// (slashParsed: it did), copied into each attempt's request instead of
	// parsing it again.
	baseSlash   string
	slashURL    url.URL
	slashHost   string
	slashParsed bool
	// httpFrom is the *http.Client of the client's Options.HTTPClient
	// (http.DefaultClient for nil; nil for another HTTPClient), and
	// httpConfined its copy whose redirects stay on the request's origin
	// (target.go).
	httpFrom     *http.Client
	httpConfined HTTPClient
	// origin is the endpoint's scheme and host[:port] (target.go).
	origin *url.URL
	// policies are the resolved policies of the operations called with
	// options that change nothing a policy reads (*Operation → *Policy;
	// operationPolicy), at most maxCachedPolicies of them; nPolicies
	// counts them.
	policies  sync.Map
	nPolicies atomic.Int32
}

// NewClient resolves the settings of opts against the service's defaults,
// the environment and the shared config file (retry-behavior.md §2), and
// returns a client for endpoint. It returns an error naming the level and
// value when the winning retry mode or max attempts is invalid
// (`AWS_MAX_ATTEMPTS="-1" (environment): must be an integer ≥ 1`), when
// endpoint is not an absolute http(s) URL, or when opts set a per-call
// field (Endpoint, IdempotencyKey).
func NewClient(svc *Service, endpoint string, opts Options) (*Client, error) {
	return newClient(svc, endpoint, opts)
}

// Do sends req for op with retries as the resolved mode prescribes. opts are
// the call's options: the client's options with any per-call changes applied
// (nil means the client's). On a 2xx response decode is called with the
// response, whose body the runtime closes afterwards; decode's error is
// wrapped in a *DecodeError, not retried unless it is an I/O failure (a body
// that broke off or timed out, a checksum mismatch: retried on retry-safe
// operations, §3). Every failure is an
// *OperationError naming the service and op, wrapping a ModeledError (from
// op.NewError), an *APIError, a transport or context error, a *ConfigError
// (invalid per-call options), a *RequestHookError, a *DecodeError, or one of
// *MaxAttemptsError, *QuotaExhaustedError, *ServerDelayError,
// *RateLimitedError, *ThrottleWindowError wrapping the last attempt's error;
// match them with errors.As and errors.Is; a req.Path that could leave the
// endpoint (see Request.Path) is an *InvalidParamsError before any attempt.
// Every response body not handed to decode is drained (up to 4 KiB) and
// closed.
func (c *Client) Do(ctx context.Context, op *Operation, req *Request, opts *Options, decode func(*http.Response) error) (ResponseMetadata, error) {
	ep, err := c.checkTarget(op, req, opts) // target.go: never leave the endpoint
	if err != nil {
		return ResponseMetadata{}, &OperationError{Service: c.svc.errorName(), Operation: op.Name, Err: err}
	}
	md, err := c.do(ctx, op, req, opts, ep, decode)
	if err != nil {
		return md, &OperationError{Service: c.svc.errorName(), Operation: op.Name, Err: err}
	}
	return md, nil
}

// defaultRequestIDHeaders are looked up for the request ID when the service
// declares neither RequestIDHeaders nor RequestIDFields: the de-facto
// X-Request-Id and the Request-Id of W3C trace context's predecessor
// (used by Stripe, Azure and many others).
var defaultRequestIDHeaders = []string{"X-Request-Id", "Request-Id"}

// maxDrain is how much more of a discarded body is read so the connection
// can be reused: 4 KiB. Bodies the runtime reads are capped by
// Options.MaxResponseBody (DefaultMaxResponseBody).
const maxDrain = 4 << 10

func newClient(svc *Service, endpoint string, opts Options) (*Client, error) {
	if svc == nil {
		return nil, fmt.Errorf("runtime.NewClient: nil service")
	}
	ep, err := parseEndpoint(endpoint) // target.go
	if err != nil {
		return nil, err
	}
	if opts.Endpoint != "" {
		return nil, errors.New("Options.Endpoint is set per call; pass the client's endpoint to New (the generated constructor; runtime.NewClient's endpoint argument)")
	}
	if opts.IdempotencyKey != "" {
		return nil, errors.New("Options.IdempotencyKey is set per call: one key on every call makes the server answer each later call with the first call's result; set it in a call's options")
	}
	c := &Client{svc: svc, opts: opts, clock: opts.Clock, rand: opts.Rand, windows: opts.Windows, origin: ep.origin}
	c.observed = opts.Logger != nil || opts.OnAttempt != nil
	c.base, c.baseQuery = ep.base, ep.query
	c.baseSlash = c.base + "/"
	if hc, ok := opts.HTTPClient.(*http.Client); ok || opts.HTTPClient == nil {
		if hc == nil {
			hc = http.DefaultClient
		}
		c.httpFrom, c.httpConfined = hc, confine(hc)
	}
	if r, err := http.NewRequest(http.MethodGet, c.baseSlash, nil); err == nil {
		c.slashURL, c.slashHost, c.slashParsed = *r.URL, r.Host, true
	}
	if c.clock == nil {
		c.clock = engine.SystemClock{}
	}
	if c.rand == nil {
		c.rand = rand.Float64
	}
	qs := ResolveQuotaSettings(&opts)
	c.quota = engine.NewRetryQuota(qs.Capacity.Value)
	c.costs = newRetryCosts(qs)
	c.scope.limiter = engine.NewRateLimiter(c.clock)
	if svc.AttemptHeader != "" {
		c.attemptHeader = http.CanonicalHeaderKey(svc.AttemptHeader)
	}
	if svc.InvocationIDHeader != "" {
		c.invocationIDHeader = http.CanonicalHeaderKey(svc.InvocationIDHeader)
	}
	if svc.ChecksumHeader != "" {
		c.checksumHeader = http.CanonicalHeaderKey(svc.ChecksumHeader)
	}
	reqIDs := svc.RequestIDHeaders
	if len(reqIDs) == 0 && len(svc.RequestIDFields) == 0 {
		reqIDs = defaultRequestIDHeaders
	}
	for _, h := range reqIDs {
		c.requestIDHeaders = append(c.requestIDHeaders, http.CanonicalHeaderKey(h))
	}
	if ws, ok := c.windows.(*engine.WindowStore); c.windows == nil || ok && ws == nil {
		// A nil *WindowStore still means "not set", as when the option was
		// of that type.
		c.windows = engine.NewWindowStore()
	}
	if err := c.resolveFleet(scopeHost(ep.origin)); err != nil {
		return nil, err
	}
	for _, s := range []any{c.windows, c.scope.fleet} {
		if f, ok := s.(engine.StoreFaultReporter); ok {
			c.faults = append(c.faults, f)
		}
	}
	if err := checkDurations(&c.opts, engine.LevelClientOption); err != nil {
		return nil, err
	}
	s, err := resolveSettings(svc, &c.opts, nil, Env{})
	if err != nil {
		return nil, err
	}
	c.settings = s
	if n := resolvePolicy(s, svc, nil, &c.opts, nil).Params.MaxAttempts; c.attemptHeader != "" && n <= 16 {
		for i := 1; i <= n; i++ {
			c.attemptValues = append(c.attemptValues, attemptValue(i, n))
		}
	}
	return c, nil
}

// Settings returns the client's resolved retry mode and max attempts, each
// with the source that decided it (§2).
func (c *Client) Settings() Settings { return c.settings }

// RetryQuota returns the client's retry quota, e.g. to read its balance.
func (c *Client) RetryQuota() *engine.RetryQuota { return c.quota }

// RateLimiter returns the client's adaptive-mode rate limiter (§6), shared by
// all its calls, e.g. to read its state or to take send tokens with
// [engine.RateLimiter.TryAcquireAt] when driving calls with the step API.
func (c *Client) RateLimiter() *engine.RateLimiter { return c.scope.limiter }

// send makes one attempt, under its own deadline when Options.AttemptTimeout
// is set: the deadline covers the response headers and the reading and
// decoding of the body. On a 2xx it hands the response to decode (after
// checking the service's response checksum); every error of that step is
// a *DecodeError in res.Err, which classification retries on retry-safe
// operations (§3) when it wraps an I/O failure (a body that breaks off,
// times out or fails its checksum). Every body is drained and closed before
// send returns.
func (cl *callMachine) send(ctx context.Context, req *Request, attempt int, decode func(*http.Response) error) engine.AttemptResult {
	opts := cl.opts
	if cl.stream != nil {
		// The body may outlive send: the stream owns the attempt's context.
		ctx = cl.stream.attemptContext(ctx, opts.AttemptTimeout)
	} else if opts.AttemptTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.AttemptTimeout)
		defer cancel()
	}
	hreq, bodies, err := cl.newAttemptRequest(ctx, req, attempt)
	if err != nil {
		return engine.AttemptResult{Err: err}
	}
	own := cl.own
	if own == nil {
		own = &noOptions
	}
	for _, hook := range [...]func(*http.Request, int) error{
		cl.c.opts.BeforeAttempt, own.BeforeAttempt, cl.hooks[0].BeforeAttempt, cl.hooks[1].BeforeAttempt,
	} {
		if hook == nil {
			continue
		}
		if err := hook(hreq, attempt); err != nil {
			// Not a transport failure: nothing was sent and retrying
			// would not help.
			return engine.AttemptResult{Err: &RequestHookError{Attempt: attempt, Err: err}}
		}
	}
	resp, err := cl.c.httpClient(opts.HTTPClient).Do(hreq) // target.go: redirects stay on the origin
	if err != nil {
		return engine.AttemptResult{Err: redactTransportError(err), Sent: sentBeforeFailure(err)}
	}
	res := engine.AttemptResult{StatusCode: resp.StatusCode, Header: resp.Header, Sent: true}
	cl.md.RequestID = firstHeader(resp.Header, cl.c.requestIDHeaders)
	cl.md.Header = resp.Header
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		if cl.stream != nil {
			cl.stream.attach(resp) // handed to the caller unread (Client.Open)
			return res
		}
		if err := cl.readSuccess(resp, decode, bodies); err != nil {
			if doc, ok := errors.AsType[errorDocument](err); ok {
				return cl.errorDocument(resp, doc.ErrorDocument())
			}
			res.Err = &DecodeError{Operation: cl.op.Name, StatusCode: resp.StatusCode, Err: err}
		}
		return res
	}
	data, readErr := cl.readErrorBody(resp)
	discard(resp)
	if _, tooLarge := errors.AsType[*BodyTooLargeError](readErr); tooLarge {
		// Not retried (classify): the same request gets the same body.
		res.Err = &DecodeError{Operation: cl.op.Name, StatusCode: resp.StatusCode, Err: readErr}
		return res
	}
	md, err := cl.c.decodeError(cl.op, resp, data)
	res.Code, res.Err, cl.md.RequestID = md.Code, err, md.RequestID
	if readErr != nil && len(data) == 0 {
		// The error body broke off: report the transport failure with the
		// status, so classification still sees the status.
		res.Err = fmt.Errorf("%w (reading body of HTTP %d: %v)", res.Err, resp.StatusCode, readErr)
	}
	if o := refusedRedirect(resp); o != "" { // target.go
		res.Err = fmt.Errorf("%w: redirect to another origin (%s) not followed", res.Err, o)
	}
	return res
}

// errorDocument is the decoder's report (openapi.ErrorDocumentError) that
// a 2xx body is the service's error document: S3's 200 OK followed by
// <Error><Code>InternalError</Code>…, which aws-sdk-go-v2 handles as an
// error response with status 500 (service/s3 customizations,
// processResponseWith200Error).
type errorDocument interface {
	error
	ErrorDocument() []byte
}

// errorDocument makes the attempt whose 2xx response carried the error
// document body an HTTP 500 error response with that body, as
// aws-sdk-go-v2 does: its code, message and request ID are read as any
// error body's, it is classified by code and then by status 500 (§4: an
// InternalError is transient), and the error reports HTTP status 500.
func (cl *callMachine) errorDocument(resp *http.Response, body []byte) engine.AttemptResult {
	as500 := *resp
	as500.StatusCode, as500.Status = http.StatusInternalServerError, "500 Internal Server Error"
	md, err := cl.c.decodeError(cl.op, &as500, body)
	cl.md.RequestID = md.RequestID
	return engine.AttemptResult{StatusCode: as500.StatusCode, Header: resp.Header, Sent: true, Code: md.Code, Err: err}
}

// newAttemptRequest builds one attempt's request from the operation's
// request: a new *http.Request with a new header map holding the
// operation's fixed headers, req.Header's values (never req.Header itself,
// which the runtime does not write) and the runtime's own headers:
// Content-Type, Accept-Encoding (acceptEncoding), the attempt header, the invocation ID header, the
// idempotency key, x-sdk-throttling-control and the throttle debug header.
// A BeforeAttempt hook therefore sees a request no earlier attempt touched.
// All header values share one backing array, each value slice capped at its
// length, so the header costs the map and one allocation. A body held in
// memory (Request.Body) is read through the returned attemptBodies, which
// also hold the reader of the response's body (readSuccess): one
// allocation for both; nil for other bodies.
func (cl *callMachine) newAttemptRequest(ctx context.Context, req *Request, attempt int) (*http.Request, *attemptBodies, error) {
	c := cl.c
	var body io.Reader
	var bodies *attemptBodies
	replay, size, err := req.attemptBodyOf(ctx)
	switch {
	case err != nil:
		return nil, nil, err
	case replay != nil:
		body = replay // GetBody or a seekable BodyReader (replay.go)
	case req.stream != nil:
		body = attemptStream(ctx, req.stream)
	case req.Body != nil:
		// A *bytes.Reader: NewRequest sets GetBody and ContentLength, and
		// the transport writes the body with the headers (in-memory).
		bodies = new(attemptBodies)
		bodies.req.Reset(req.Body)
		body = &bodies.req
	}
	// The endpoint's own "/" (AWS JSON and query protocols) was parsed
	// once by NewClient: it is copied below, not parsed again. target
	// decides the URL; it returns c.baseSlash itself, without allocating,
	// exactly when that is the attempt's URL.
	target := cl.target(req)
	parsed := c.slashParsed && target == c.baseSlash
	if parsed {
		target = ""
	}
	hreq, err := http.NewRequestWithContext(ctx, req.Method, target, body)
	if err != nil {
		return nil, nil, fmt.Errorf("building request: %w", redactTransportError(err)) // a *url.Error quotes the URL, query included
	}
	if parsed {
		*hreq.URL, hreq.Host = c.slashURL, c.slashHost // the attempt's own copy
	}
	if replay != nil && size >= 0 {
		hreq.ContentLength = size
	} else if req.stream != nil && req.hasDeclared {
		hreq.ContentLength = req.declared // contentlength.go: not chunked
	}
	var extra [5 + len(cl.callHeaders)]headerKV
	n := 0
	add := func(k, v string) { extra[n] = headerKV{k, v}; n++ }
	if req.ContentType != "" && body != nil {
		add("Content-Type", req.ContentType)
	}
	if ae := acceptEncoding(cl.opts, c.checksumHeader); ae != "" {
		add("Accept-Encoding", ae)
	}
	if c.attemptHeader != "" {
		add(c.attemptHeader, cl.attemptValue(attempt))
	}
	for _, h := range cl.callHeaders[:cl.nCallHeaders] {
		add(h.key, h.value)
	}
	if cl.pol.ThrottleControl != nil {
		add(engine.HeaderThrottlingControl, "enable")
	}
	if cl.opts.ThrottleDebug {
		add("X-Ratelimit-Mode", "debug")
	}
	fixed := cl.op.FixedHeaders
	nv := n + len(fixed)
	for _, v := range req.Header {
		nv += len(v)
	}
	// NewRequest's own empty map holds up to 8 keys without growing (a
	// map's first group); more get a map sized for them.
	h := hreq.Header
	if keys := len(fixed) + len(req.Header) + n; keys > 8 || h == nil {
		h = make(http.Header, keys)
	}
	vals := make([]string, nv)
	for k, v := range fixed {
		vals[0] = v
		h[k], vals = vals[:1:1], vals[1:]
	}
	for k, v := range req.Header {
		m := copy(vals, v)
		h[k], vals = vals[:m:m], vals[m:]
	}
	for _, e := range extra[:n] {
		vals[0] = e.value
		h[e.key], vals = vals[:1:1], vals[1:]
	}
	hreq.Header = h
	return hreq, bodies, nil
}

// attemptBodies are the readers of one attempt's request body (held in
// memory) and response body, allocated together.
type attemptBodies struct {
	req  bytes.Reader
	resp responseBody
}

// target returns the attempt's URL: the endpoint, the request path and the
// merged query. It allocates only when the request has a query or the
// client's endpoint URL is not cached for this path.
func (cl *callMachine) target(req *Request) string {
	c := cl.c
	if cl.endpoint != nil {
		return callTarget(cl.endpoint, req) // target.go, checked before the first attempt
	}
	if len(c.baseQuery) == 0 && len(req.Query) == 0 {
		if req.Path == "/" {
			return c.baseSlash
		}
		return c.base + req.Path
	}
	return withQuery(c.base+req.Path, req, c.baseQuery)
}

// withQuery appends to target the query of the endpoint (base) merged with
// req.Query: after "&" when req.Path ends in bare flags ("/b?tagging").
func withQuery(target string, req *Request, base url.Values) string {
	if q := mergeQuery(base, req.Query); q != "" {
		if strings.Contains(req.Path, "?") {
			target += "&" + q // after the path's bare flags ("/b?tagging")
		} else {
			target += "?" + q
		}
	}
	return target
}

// attemptValue is the attempt header's value, "attempt=N; max=M" (AWS
// amz-sdk-request), precomputed for the client's max attempts.
func (cl *callMachine) attemptValue(attempt int) string {
	if v := cl.c.attemptValues; cl.pol.Params.MaxAttempts == len(v) && attempt <= len(v) {
		return v[attempt-1]
	}
	return attemptValue(attempt, cl.pol.Params.MaxAttempts)
}

func attemptValue(attempt, max int) string {
	return "attempt=" + strconv.Itoa(attempt) + "; max=" + strconv.Itoa(max)
}

// discard drains up to maxDrain bytes of a body the caller does not want and
// closes it, so the connection can be reused.
// It reads into a pooled buffer: io.CopyN would allocate a LimitedReader on
// every call.
func discard(resp *http.Response) {
	buf := drainBufs.Get().(*[maxDrain]byte)
	_, _ = io.ReadFull(resp.Body, buf[:])
	drainBufs.Put(buf)
	_ = resp.Body.Close()
}

// drainBufs holds the maxDrain-byte buffers discard reads into.
var drainBufs = sync.Pool{New: func() any { return new([maxDrain]byte) }}

// mergeQuery encodes base (the endpoint's query) and extra (the request's)
// together as openapi.EncodeQuery does: url.Values.Encode, with the
// separators openapi.AppendQuery marked kept literal (querymark.Literal).
func mergeQuery(base, extra url.Values) string {
	switch {
	case len(extra) == 0:
		return querymark.Literal(base.Encode())
	case len(base) == 0:
		return querymark.Literal(extra.Encode())
	}
	all := make(url.Values, len(base)+len(extra))
	for k, v := range base {
		all[k] = v
	}
	for k, v := range extra {
		all[k] = append(all[k][:len(all[k]):len(all[k])], v...)
	}
	return querymark.Literal(all.Encode())
}

// firstHeader returns the first non-empty value of the canonical header keys
// in h, or "". Indexing h directly (no Header.Get) allocates nothing.
func firstHeader(h http.Header, canonicalKeys []string) string {
	for _, k := range canonicalKeys {
		if v := h[k]; len(v) > 0 && v[0] != "" {
			return v[0]
		}
	}
	return ""
}

// normaliseCode keeps the part of an error code before the first ':' and
// after the last '#': "ResourceNotFoundException:http://…" and
// "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException" both give
// "ResourceNotFoundException".
func normaliseCode(v string) string {
	if i := strings.IndexByte(v, ':'); i >= 0 {
		v = v[:i]
	}
	if i := strings.LastIndexByte(v, '#'); i >= 0 {
		v = v[i+1:]
	}
	return strings.TrimSpace(v)
}

// Options returns a copy of the client's options without its hooks
// (BeforeAttempt, OnAttempt, OnCall set to nil), as the starting point of
// per-call options: the client's hooks run on every call anyway, and the
// hooks a call's options set run after them (see [Options]).
func (c *Client) Options() Options {
	o := c.opts
	o.BeforeAttempt, o.OnAttempt, o.OnCall = nil, nil, nil
	return o
}
