package golden

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/retrygen/retrygen/generator"
	"github.com/retrygen/retrygen/golden/mistrallite"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/openapi"
)

// mistralSpec is the copy of ../shared/specs/mistral_openapi.yaml the
// streaming tests generate from.
const mistralSpec = "../specs/mistral_openapi.yaml"

// TestMistralLiteGolden generates golden/mistrallite in process from the
// selection of mistrallite.retrygen.yaml and requires it byte-identical to
// the checked-in client (-update rewrites it).
func TestMistralLiteGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("loads Mistral's 1 MB spec")
	}
	var cfg struct {
		Include struct{ Operations []string }
		Rename  struct{ Operations map[string]string }
	}
	b, err := os.ReadFile("mistrallite.retrygen.yaml")
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, &cfg))
	sel := &generator.Selection{Include: generator.Selector{Operations: cfg.Include.Operations},
		Rename: generator.Renames{Operations: cfg.Rename.Operations}}
	svc, _, err := generator.LoadSelected(mistralSpec, nil, sel)
	require.NoError(t, err)
	files, err := generator.Generate(svc, "mistrallite")
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.RemoveAll("mistrallite"))
		writeFiles(t, "mistrallite", files)
	}
	want := readDir(t, "mistrallite")
	require.Len(t, files, len(want))
	for _, f := range files {
		require.Equal(t, string(want[f.Name]), string(f.Content), "%s differs from golden/mistrallite; run go test ./golden/ -update", f.Name)
	}
}

// TestMistralEveryEventStreamOperationReturnsAStream generates the whole
// Mistral client and checks, against the spec read independently, that
// every operation with a text/event-stream 2xx response has a method
// returning *openapi.EventStream.
func TestMistralEveryEventStreamOperationReturnsAStream(t *testing.T) {
	if testing.Short() {
		t.Skip("generates Mistral's 288 operations")
	}
	var spec struct {
		Paths map[string]map[string]struct {
			OperationID string `yaml:"operationId"`
			Responses   map[string]struct {
				Content map[string]any
			}
		}
	}
	b, err := os.ReadFile(mistralSpec)
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, &spec))
	var streaming []string // operationIds
	for _, item := range spec.Paths {
		for _, op := range item {
			for code, r := range op.Responses {
				if _, ok := r.Content["text/event-stream"]; ok && strings.HasPrefix(code, "2") {
					streaming = append(streaming, op.OperationID)
				}
			}
		}
	}
	require.Len(t, streaming, 11, "the shared spec's README counts 11 event-stream responses")

	svc, _, err := generator.LoadService(mistralSpec, nil)
	require.NoError(t, err)
	files, err := generator.Generate(svc, "mistral")
	require.NoError(t, err)
	var ops string
	for _, f := range files {
		if f.Name == "operations.go" {
			ops = string(f.Content)
		}
	}
	found := 0
	for _, op := range svc.Operations {
		if op.Stream == nil {
			continue
		}
		found++
		require.Contains(t, ops, "func (c *Client) "+op.Stream.Method+"(ctx context.Context, in *"+op.Input+", opts ...func(*Options)) (*openapi.EventStream[",
			"%s returns a stream", op.Stream.Method)
	}
	require.Equal(t, len(streaming), found)
	stateful := 0
	for _, op := range svc.Operations {
		if op.Stream != nil && !op.Stream.Only {
			stateful++
			require.Contains(t, ops, "func (c *Client) "+op.Name+"(ctx context.Context, in *"+op.Input+", opts ...func(*Options)) (*"+op.Output+", error) {")
		}
	}
	require.Equal(t, 3, stateful, "chat, FIM and speech offer JSON too: a method each way")
}

// chunk writes one Mistral chat completion chunk as an event.
func chunk(w io.Writer, id, content string, finish bool) {
	reason := "null"
	if finish {
		reason = `"stop"`
	}
	fmt.Fprintf(w, "data: {\"id\":%q,\"object\":\"chat.completion.chunk\",\"created\":1759496862,\"model\":\"mistral-small-latest\","+
		"\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":%q},\"finish_reason\":%s}]}\n\n", id, content, reason)
}

// TestMistralChatCompleteStreamOverLoopback drives the generated
// ChatCompleteStream against a loopback server speaking Mistral's chat
// completion events (data-only events, a [DONE] sentinel), and
// ChatComplete against the same endpoint's JSON.
func TestMistralChatCompleteStreamOverLoopback(t *testing.T) {
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		bodies = append(bodies, body)
		if body["stream"] != true {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"id":"c1","object":"chat.completion","model":"mistral-small-latest","created":1,"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3},`+
				`"choices":[{"index":0,"message":{"role":"assistant","content":"Hello, world"},"finish_reason":"stop"}]}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i, part := range []string{"Hel", "lo, ", "world"} {
			chunk(w, "c1", part, i == 2)
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, ": keep-alive\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	c, err := mistrallite.New(srv.URL)
	require.NoError(t, err)
	ctx := context.Background()
	msgs := []mistrallite.ChatCompletionRequestMessagesItem{{Raw: json.RawMessage(`{"role":"user","content":"Say hello"}`)}}
	in := &mistrallite.ChatCompletionRequest{Model: "mistral-small-latest", Messages: msgs}
	stream, err := c.ChatCompleteStream(ctx, in)
	require.NoError(t, err)
	var text strings.Builder
	var finish []string
	for ev, err := range stream.All(ctx) {
		require.NoError(t, err)
		require.Equal(t, "message", ev.Type)
		ch := ev.Data.Choices[0]
		content, ok := openapi.ValueOf(ch.Delta.Content)
		require.True(t, ok)
		text.WriteString(*content.String)
		if ch.FinishReason != nil {
			finish = append(finish, string(*ch.FinishReason))
		}
	}
	require.Equal(t, "Hello, world", text.String())
	require.Equal(t, []string{"stop"}, finish)
	require.Nil(t, in.Stream, "the caller's input is not changed")

	on := true
	out, err := c.ChatComplete(ctx, &mistrallite.ChatCompletionRequest{Model: "mistral-small-latest", Messages: msgs, Stream: &on})
	require.NoError(t, err)
	require.Equal(t, "c1", out.Id)
	require.Len(t, bodies, 2)
	require.Equal(t, true, bodies[0]["stream"], "the stream method asks for events")
	require.Equal(t, false, bodies[1]["stream"], "the JSON method asks for JSON, whatever the input says")
}

// content returns n pseudo-random bytes, the same for the same seed.
func content(n int, seed uint64) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(seed, seed))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// cutServer serves data for GET /v1/files/{id}/content with an ETag and
// Accept-Ranges; its first response breaks off after cutAt bytes. Later
// responses are http.ServeContent's (Range, If-Range), with the ETag etag2
// when set (the representation changed).
func cutServer(t *testing.T, data []byte, cutAt int, etag2 string) (*httptest.Server, *[]http.Header) {
	var seen []http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Header.Clone())
		etag := `"v1"`
		if len(seen) == 1 {
			w.Header().Set("ETag", etag)
			w.Header().Set("Accept-Ranges", "bytes")
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Length", fmt.Sprint(len(data)))
			_, _ = w.Write(data[:cutAt])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // the connection breaks off
		}
		if etag2 != "" {
			etag = etag2
		}
		w.Header().Set("ETag", etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

func TestMistralDownloadCutAt40PercentResumesWithRange(t *testing.T) {
	data := content(8<<20, 1)
	cutAt := len(data) * 40 / 100
	srv, seen := cutServer(t, data, cutAt, "")
	var attempts []runtime.AttemptInfo
	c, err := mistrallite.New(srv.URL, func(o *mistrallite.Options) {
		o.Clock = clocktest.New(time.Unix(0, 0))
		o.OnAttempt = func(a runtime.AttemptInfo) { attempts = append(attempts, a) }
	})
	require.NoError(t, err)
	out, err := c.DownloadFile(context.Background(), &mistrallite.DownloadFileInput{FileId: "f1"})
	require.NoError(t, err)
	h := sha256.New()
	n, err := io.Copy(h, out.Body)
	require.NoError(t, err)
	require.NoError(t, out.Body.Close())
	require.Equal(t, int64(len(data)), n)
	require.Equal(t, sha256.Sum256(data), [32]byte(h.Sum(nil)), "the caller reads one complete body")
	require.Len(t, *seen, 2)
	require.Equal(t, fmt.Sprintf("bytes=%d-", cutAt), (*seen)[1].Get("Range"))
	require.Equal(t, `"v1"`, (*seen)[1].Get("If-Range"))
	var outcomes []string
	for _, a := range attempts {
		outcomes = append(outcomes, fmt.Sprint(a.Attempt, " ", a.Outcome))
	}
	require.Equal(t, []string{"1 success", "1 retry_request", "2 success"}, outcomes, "the resume is the call's second attempt")
}

func TestMistralDownloadOfAChangedRepresentationFailsTyped(t *testing.T) {
	data := content(1<<20, 2)
	srv, seen := cutServer(t, data, 1000, `"v2"`)
	c, err := mistrallite.New(srv.URL, func(o *mistrallite.Options) { o.Clock = clocktest.New(time.Unix(0, 0)) })
	require.NoError(t, err)
	out, err := c.DownloadFile(context.Background(), &mistrallite.DownloadFileInput{FileId: "f1"})
	require.NoError(t, err)
	got, err := io.ReadAll(out.Body)
	require.NoError(t, out.Body.Close())
	var changed *runtime.RepresentationChangedError
	require.ErrorAs(t, err, &changed)
	require.Equal(t, runtime.RepresentationChangedError{Offset: 1000, StatusCode: http.StatusOK}, *changed)
	require.Equal(t, data[:1000], got, "the bytes before the cut, nothing of the new representation")
	require.Len(t, *seen, 2)
}
