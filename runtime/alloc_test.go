package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// The allocations of one call on the paths every generated client takes
// (issue 24 item 2), pinned exactly so that none comes back unnoticed: a
// DynamoDB GetItem as the generated client makes it (fixed headers from the
// Operation, a JSON body, the attempt and invocation-ID headers, the
// checksum header declared, a JSON response decoded with DecodeJSONKeep into
// a typed output), over an HTTPClient that answers from memory, so only the
// runtime's own allocations and encoding/json's are counted. The counts
// depend on the Go release's net/http and encoding/json: a Go upgrade may
// move them (then re-pin, after checking the difference is theirs).

// getItemService is the generated DynamoDB client's Service, as far as the
// call path reads it.
func getItemService() *Service {
	return &Service{
		Name: "Amazon DynamoDB", PackageName: "dynamodb", EnvPrefix: "AWS", DefaultMode: ModeStandard,
		Defaults:           ModeDefaults{MaxAttempts: 4, TransientBaseDelay: 25 * time.Millisecond, ThrottlingBaseDelay: time.Second, MaxBackoff: 20 * time.Second},
		ThrottlingCodes:    []string{"ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded"},
		ErrorCodeHeaders:   []string{"X-Amzn-ErrorType"},
		ErrorCodeFields:    []string{"__type", "code", "Code"},
		ErrorMessageFields: []string{"message", "Message"},
		RequestIDHeaders:   []string{"x-amzn-RequestId"},
		ServerDelayHeaders: []string{"x-amz-retry-after"},
		RetrySafe:          true,
		AttemptHeader:      "amz-sdk-request",
		InvocationIDHeader: "amz-sdk-invocation-id",
		ChecksumHeader:     "x-amz-crc32",
	}
}

// getItemModeled is the modeled error of the one-retry path.
type getItemModeled struct {
	ErrorMetadata `json:"-"`
	Message       string `json:"message"`
}

func (e *getItemModeled) Error() string { return e.ErrorMetadata.String() }

var opGetItemAlloc = &Operation{
	Name: "GetItem", RetrySafe: true,
	FixedHeaders: map[string]string{"Accept": "application/json", "X-Amz-Target": "DynamoDB_20120810.GetItem"},
	NewError: func(code string) ModeledError {
		if code == "InternalServerError" {
			return &getItemModeled{}
		}
		return nil
	},
}

// getItemOut is the typed output the generated GetItem decodes into.
type getItemOut struct {
	Item           map[string]struct{ S *string }
	ResultMetadata ResponseMetadata `json:"-"`
}

// cannedResponse is one response a cannedClient answers with, rebuilt in
// place on every answer.
type cannedResponse struct {
	status int
	header http.Header
	data   []byte
	body   cannedBody
	resp   http.Response
}

// cannedBody reads a cannedResponse's bytes; Close does nothing.
type cannedBody struct{ bytes.Reader }

func (*cannedBody) Close() error { return nil }

// cannedClient answers the requests it is sent with its responses in turn,
// reading each request body whole as a transport does. It allocates
// nothing per request.
type cannedClient struct {
	resps []*cannedResponse
	n     int
	buf   [512]byte
}

func (c *cannedClient) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		for {
			if _, err := req.Body.Read(c.buf[:]); err != nil {
				break
			}
		}
		_ = req.Body.Close()
	}
	r := c.resps[c.n%len(c.resps)]
	c.n++
	r.body.Reset(r.data)
	r.resp = http.Response{StatusCode: r.status, Header: r.header, ContentLength: int64(len(r.data)), Body: &r.body}
	return &r.resp, nil
}

var (
	getItemOK = func() *cannedResponse {
		return &cannedResponse{status: 200, data: []byte(`{"Item":{"id":{"S":"u-1"},"name":{"S":"Ada"}}}`),
			header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}, "X-Amzn-Requestid": {"req-1"}}}
	}
	getItemFail = func() *cannedResponse {
		return &cannedResponse{status: 500, data: []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"try again"}`),
			header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}, "X-Amzn-Requestid": {"req-1"}, "X-Amzn-Errortype": {"InternalServerError"}}}
	}
)

// getItemCall returns one GetItem call as generated code makes it over hc:
// the call's options are the client's (no per-call options), as in the
// side-by-side bench.
func getItemCall(t testing.TB, hc HTTPClient) func() (*getItemOut, error) {
	t.Helper()
	c, err := NewClient(getItemService(), "http://127.0.0.1:8000", Options{HTTPClient: hc, MaxAttempts: 3, Rand: fixedRand(0), Clock: clocktest.New(epoch)})
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"Key":{"id":{"S":"u-1"}},"TableName":"users"}`)
	ctx := context.Background()
	return func() (*getItemOut, error) {
		req := &Request{Body: body, ContentType: "application/x-amz-json-1.0", Method: "POST", Path: "/"}
		out := new(getItemOut)
		md, err := c.Do(ctx, opGetItemAlloc, req, &c.opts, DecodeJSONKeep(out, &out.ResultMetadata.Body))
		md.Body = out.ResultMetadata.Body
		out.ResultMetadata = md
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

// Allocations per call, exactly.
const (
	allocsGetItemSuccess  = 29
	allocsGetItemOneRetry = 46
)

func TestDoAllocationsArePinned(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops sync.Pool items at random: counts vary")
	}
	for _, tc := range []struct {
		name     string
		resps    []*cannedResponse
		attempts int
		want     float64
	}{
		{"success", []*cannedResponse{getItemOK()}, 1, allocsGetItemSuccess},
		{"one-retry", []*cannedResponse{getItemFail(), getItemOK()}, 2, allocsGetItemOneRetry},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call := getItemCall(t, &cannedClient{resps: tc.resps})
			var failed error
			run := func() {
				out, err := call()
				switch {
				case err != nil:
					failed = err
				case out.ResultMetadata.Attempts != tc.attempts || *out.Item["name"].S != "Ada" || out.ResultMetadata.RequestID != "req-1":
					failed = errUnexpected
				}
			}
			run() // warm the pools
			got := testing.AllocsPerRun(200, run)
			if failed != nil {
				t.Fatal(failed)
			}
			if got != tc.want {
				t.Errorf("allocations per call: %v, want exactly %v", got, tc.want)
			}
		})
	}
}

// errUnexpected: the call returned, but not what the canned responses say.
var errUnexpected = errors.New("unexpected output")

// BenchmarkDoGetItem is the runtime's cost of one generated GetItem call,
// the transport answering from memory: "success" and "one-retry" (a 500
// with a JSON error body decoded into the modeled error, then the 200),
// the paths TestDoAllocationsArePinned pins, and "by-hand": the success
// path's request written by hand with net/http (the same headers, body
// and typed output, as bench/sidebyside's floor). Besides ns/op it reports
// cpu-ns/op, the process's CPU per call.
func BenchmarkDoGetItem(b *testing.B) {
	body := []byte(`{"Key":{"id":{"S":"u-1"}},"TableName":"users"}`)
	for _, bc := range []struct {
		name  string
		resps []*cannedResponse
	}{
		{"success", []*cannedResponse{getItemOK()}},
		{"one-retry", []*cannedResponse{getItemFail(), getItemOK()}},
		{"by-hand", []*cannedResponse{getItemOK()}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			hc := &cannedClient{resps: bc.resps}
			call := getItemCall(b, hc)
			if bc.name == "by-hand" {
				call = func() (*getItemOut, error) { return handGetItem(hc, body) }
			}
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if _, err := call(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// handGetItem is GetItem by hand with net/http over hc: what getItemCall's
// call sends and decodes, without the runtime.
func handGetItem(hc HTTPClient, body []byte) (*getItemOut, error) {
	hreq, err := http.NewRequestWithContext(context.Background(), "POST", "http://127.0.0.1:8000/", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Accept", "application/json")
	hreq.Header.Set("Accept-Encoding", "identity")
	hreq.Header.Set("Content-Type", "application/x-amz-json-1.0")
	hreq.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
	hreq.Header.Set("Amz-Sdk-Invocation-Id", NewUUID())
	hreq.Header.Set("Amz-Sdk-Request", "attempt=1; max=3")
	resp, err := hc.Do(hreq)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, errUnexpected
	}
	out := new(getItemOut)
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return nil, err
	}
	out.ResultMetadata.RequestID = resp.Header.Get("X-Amzn-Requestid")
	return out, nil
}

// headerGet answers as http.Header.Get for keys in any case, canonical or
// not, with bytes net/textproto leaves alone, and longer than its buffer;
// it allocates nothing.
func TestHeaderGetIsHeaderGet(t *testing.T) {
	h := http.Header{
		"X-Amzn-Errortype": {"Throttling", "second"}, "X-Amz-Retry-After": {"1500"}, "Content-Type": {"application/json"},
		"x-raw key": {"as is"}, "Empty": {}, "X-" + strings.Repeat("Long", 20): {"long"}, "Www-Authenticate": {"w"},
		"X-Acs-Retry-After": {"7"}, "Hdr.With_token~chars!": {"t"},
	}
	keys := []string{
		"X-Amzn-ErrorType", "x-amzn-errortype", "X-AMZN-ERRORTYPE", "x-amz-retry-after", "content-type", "Content-Type",
		"x-raw key", "X-Raw Key", "empty", "Empty", "missing", "", "-", "x-" + strings.ToLower(strings.Repeat("Long", 20)),
		"WWW-Authenticate", engine.HeaderACSRetryAfter, "hdr.with_token~chars!", "x-acs-retry-after\x00", "ümlaut",
	}
	for _, k := range keys {
		require.Equal(t, h.Get(k), engine.HeaderGet(h, k), "key %q", k)
	}
	require.Zero(t, testing.AllocsPerRun(100, func() { _ = engine.HeaderGet(h, "x-amz-retry-after") }))
}

// The endpoint's "/" is parsed once by NewClient and copied into every
// attempt: each attempt's URL and Host are what http.NewRequest makes of
// the same string (a path prefix, an empty port, IPv6, user info, a query
// of the endpoint's), and a hook that changes one attempt's URL leaves the
// next attempt's alone.
func TestSlashURLIsParsedOnce(t *testing.T) {
	for _, endpoint := range []string{
		"http://127.0.0.1:8000", "https://svc.example.com/", "http://h:/", "http://[::1]:9/", "https://u:p@h.example/base/",
		"http://h.example/pre%2Ffix", "http://h.example?x=1", "HTTP://H.Example:80",
	} {
		var urls []string
		var hosts []string
		c, err := NewClient(testService(), endpoint, Options{
			Clock: clocktest.New(epoch), Rand: fixedRand(0), MaxAttempts: 2,
			HTTPClient: doFunc(func(r *http.Request) (*http.Response, error) {
				urls, hosts = append(urls, r.URL.String()), append(hosts, r.Host)
				if len(urls) == 1 {
					return &http.Response{StatusCode: 500, Header: http.Header{}, Body: nopBody{}}, nil
				}
				return ok200(), nil
			}),
			BeforeAttempt: func(r *http.Request, attempt int) error {
				if attempt == 1 {
					r.URL.Path, r.URL.RawQuery = "/changed", "by=hook"
				}
				return nil
			},
		})
		require.NoError(t, err, endpoint)
		_, err = c.Do(context.Background(), opGet, &Request{Method: "POST", Path: "/"}, nil, nil)
		require.NoError(t, err, endpoint)
		want, err := http.NewRequest("POST", (&callMachine{c: c}).target(&Request{Path: "/"}), nil)
		require.NoError(t, err)
		require.Equal(t, want.URL.String(), urls[1], endpoint)
		require.Equal(t, want.Host, hosts[1], endpoint)
		require.NotEqual(t, urls[0], urls[1], endpoint)
	}
}

// doFunc is an HTTPClient made of a function.
type doFunc func(*http.Request) (*http.Response, error)

func (f doFunc) Do(r *http.Request) (*http.Response, error) { return f(r) }

// Each attempt's header holds the operation's fixed headers, the request's
// and the runtime's, whether they fit in the map http.NewRequest made (up
// to 8 keys) or not; a value the request repeats stays repeated.
func TestAttemptHeaderHoldsEveryKey(t *testing.T) {
	for _, extra := range []int{0, 2, 3, 12} {
		var got http.Header
		c, err := NewClient(getItemService(), "http://127.0.0.1:8000", Options{
			Clock: clocktest.New(epoch), Rand: fixedRand(0),
			HTTPClient: doFunc(func(r *http.Request) (*http.Response, error) {
				got = r.Header
				return ok200(), nil
			}),
		})
		require.NoError(t, err)
		req := &Request{Method: "POST", Path: "/", Body: []byte(`{}`), ContentType: "application/x-amz-json-1.0", Header: http.Header{"Multi": {"a", "b"}}}
		want := http.Header{
			"Accept": {"application/json"}, "X-Amz-Target": {"DynamoDB_20120810.GetItem"}, "Multi": {"a", "b"},
			"Content-Type": {"application/x-amz-json-1.0"}, "Accept-Encoding": {"identity"}, "Amz-Sdk-Request": {"attempt=1; max=4"},
		}
		for i := range extra {
			k := "X-Extra-" + strings.Repeat("a", i+1)
			req.Header[k], want[k] = []string{k}, []string{k}
		}
		_, err = c.Do(context.Background(), opGetItemAlloc, req, nil, nil)
		require.NoError(t, err)
		require.Len(t, got["Amz-Sdk-Invocation-Id"], 1)
		delete(got, "Amz-Sdk-Invocation-Id")
		require.Equal(t, want, got, "%d extra headers", extra)
	}
}
