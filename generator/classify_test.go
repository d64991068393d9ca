package generator

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
)

// TestErrorClassIsTheRuntimes moves a built-in throttling code to the
// transient class in x-retry: the generated doc comment, the summary line and
// the runtime's own decision on an attempt with that code must all say
// transient (the generator once kept its own copy of the lists and said
// throttling).
func TestErrorClassIsTheRuntimes(t *testing.T) {
	spec := strings.ReplaceAll(specWith("x-retry: {version: 1, errors: {transient: [ProvisionedThroughputExceededException]}}", ""),
		"NotFound", "ProvisionedThroughputExceededException")
	svc, diags, err := load(t, spec)
	require.NoError(t, err)
	require.Empty(t, diags)
	require.Equal(t, engine.ClassTransient, svc.Errors[0].Class)
	require.Equal(t, "svc: 1 operation (0 skipped), 2 types, 1 error shape (transient 1, throttling 0, non-retryable 0)", svc.Summary("svc"))

	files, err := Generate(svc, "svc")
	require.NoError(t, err)
	doc := strings.ReplaceAll(string(fileNamed(t, files, "errors.go")), "\n// ", " ")
	require.Contains(t, doc, `with code "ProvisionedThroughputExceededException": by its code it is a transient error,`)

	rt, err := runtime.NewClient(&svc.Retry, "http://127.0.0.1:1", runtime.Options{})
	require.NoError(t, err)
	call, err := rt.NewCall(&svc.Operations[0].Retry, &runtime.Options{})
	require.NoError(t, err)
	require.Equal(t, engine.ActionSend, call.Next(context.Background(), engine.Event{Kind: engine.EventStart}).Kind)
	d := call.Next(context.Background(), engine.Event{Kind: engine.EventResponse,
		Result: &engine.AttemptResult{StatusCode: 400, Code: "ProvisionedThroughputExceededException"}}).Decision
	require.Equal(t, engine.ClassTransient, d.Class, "the runtime classifies the attempt as the doc comment says")
}

func fileNamed(t *testing.T, files []File, name string) []byte {
	t.Helper()
	for _, f := range files {
		if f.Name == name {
			return f.Content
		}
	}
	t.Fatalf("no file %s", name)
	return nil
}
