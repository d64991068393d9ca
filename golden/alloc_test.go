package golden_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/dynamodb"
	"github.com/retrygen/retrygen/runtime"
)

// The success path adds no allocation (issue 9 item 5): a generated
// DynamoDB GetItem against a loopback server allocates exactly what the
// same request built by hand with net/http allocates, headers byte for byte
// the same (amz-sdk-request and amz-sdk-invocation-id included, a fresh
// header map per call). Both run against one server, so the server's own
// allocations (counted by testing.AllocsPerRun too) are the same on both
// sides.

const getItemResponse = `{"Item":{"id":{"S":"1"},"name":{"S":"Ada"}}}`

// allocServer answers every request with getItemResponse and, when record
// is set, keeps the headers of the requests it sees.
type allocServer struct {
	*httptest.Server
	mu      sync.Mutex
	record  bool
	headers []http.Header
}

func newAllocServer(t testing.TB) *allocServer {
	s := &allocServer{}
	body := []byte(getItemResponse)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if s.record {
			s.headers = append(s.headers, r.Header.Clone())
		}
		s.mu.Unlock()
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header()["Content-Type"] = []string{"application/x-amz-json-1.0"}
		_, _ = w.Write(body)
	}))
	t.Cleanup(s.Close)
	return s
}

var getItemInput = &dynamodb.GetItemInput{
	TableName: "users",
	Key:       map[string]dynamodb.AttributeValue{"id": {S: ptr("1")}},
}

func ptr[T any](v T) *T { return &v }

// handBuiltGetItem is GetItem written by hand with net/http: the same JSON
// body, the same headers (a fresh map per call), the same decoding.
func handBuiltGetItem(ctx context.Context, hc *http.Client, url string, in *dynamodb.GetItemInput) (*dynamodb.GetItemOutput, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = http.Header{
		"Accept":                {"application/json"}, // the 2xx media type aws2openapi declares (issue 20)
		"X-Amz-Target":          {"DynamoDB_20120810.GetItem"},
		"Content-Type":          {"application/x-amz-json-1.0"},
		"Amz-Sdk-Request":       {"attempt=1; max=4"},
		"Amz-Sdk-Invocation-Id": {runtime.NewUUID()},
		"Accept-Encoding":       {"identity"}, // DynamoDB checksums the bytes it sends
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() {
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	out := new(dynamodb.GetItemOutput)
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return nil, err
	}
	return out, nil
}

// allocSides returns the two sides of the comparison, each making one
// GetItem call, over separate transports to the same server.
func allocSides(t testing.TB, srv *allocServer) (generated, hand func() error) {
	t.Helper()
	trGen, trHand := &http.Transport{}, &http.Transport{}
	t.Cleanup(trGen.CloseIdleConnections)
	t.Cleanup(trHand.CloseIdleConnections)
	c, err := dynamodb.New(srv.URL, func(o *dynamodb.Options) { o.HTTPClient = &http.Client{Transport: trGen} })
	require.NoError(t, err)
	hc := &http.Client{Transport: trHand}
	ctx := context.Background()
	generated = func() error {
		out, err := c.GetItem(ctx, getItemInput)
		if err == nil && out.Item["name"].S == nil {
			err = fmt.Errorf("no item decoded")
		}
		return err
	}
	hand = func() error {
		out, err := handBuiltGetItem(ctx, hc, srv.URL+"/", getItemInput)
		if err == nil && out.Item["name"].S == nil {
			err = fmt.Errorf("no item decoded")
		}
		return err
	}
	return generated, hand
}

func TestGetItemSendsTheHandBuiltHeaders(t *testing.T) {
	// The baseline is fair: the server sees the same header keys and
	// values from both sides, but the invocation ID (a UUID v4 each).
	srv := newAllocServer(t)
	srv.record = true
	gen, hand := allocSides(t, srv)
	require.NoError(t, gen())
	require.NoError(t, hand())
	require.Len(t, srv.headers, 2)
	render := func(h http.Header) string {
		var lines []string
		for k, v := range h {
			if k == "Amz-Sdk-Invocation-Id" {
				require.Len(t, v, 1)
				require.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, v[0])
				v = []string{"<uuid>"}
			}
			lines = append(lines, k+": "+strings.Join(v, ","))
		}
		sort.Strings(lines)
		return strings.Join(lines, "\n")
	}
	require.Equal(t, render(srv.headers[1]), render(srv.headers[0]))
}

func TestGetItemAllocatesNoMoreThanHandBuilt(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts over a loopback socket: skipped with -short")
	}
	srv := newAllocServer(t)
	gen, hand := allocSides(t, srv)
	for range 20 { // warm connections and pools
		require.NoError(t, gen())
		require.NoError(t, hand())
	}
	var genErr, handErr error
	g := testing.AllocsPerRun(500, func() {
		if err := gen(); err != nil {
			genErr = err
		}
	})
	h := testing.AllocsPerRun(500, func() {
		if err := hand(); err != nil {
			handErr = err
		}
	})
	require.NoError(t, genErr)
	require.NoError(t, handErr)
	t.Logf("allocs/op: generated %v, hand-built %v", g, h)
	require.LessOrEqual(t, g, h, "the generated GetItem allocates no more than the same request built by hand")
}

// BenchmarkGetItemSuccess: generated GetItem vs the same request built by
// hand, one call per op against a loopback server (issue 9 item 5).
func BenchmarkGetItemSuccess(b *testing.B) {
	srv := newAllocServer(b)
	gen, hand := allocSides(b, srv)
	for _, bc := range []struct {
		name string
		call func() error
	}{{"generated", gen}, {"hand-built", hand}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := bc.call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
