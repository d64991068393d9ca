package golden_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/petstore"
)

// TestGeneratedPerCallHookKeepsClientHook: a generated client's per-call
// BeforeAttempt (a tracer) runs after the client's (a signer) instead of
// replacing it, so the request still carries the client's Authorization
// (issue 25: "hooks compose").
func TestGeneratedPerCallHookKeepsClientHook(t *testing.T) {
	var auth, trace []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth, trace = append(auth, r.Header.Get("Authorization")), append(trace, r.Header.Get("Traceparent"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":1,"name":"n"}`))
	}))
	defer srv.Close()
	c, err := petstore.New(srv.URL, func(o *petstore.Options) {
		o.BeforeAttempt = func(r *http.Request, _ int) error { r.Header.Set("Authorization", "signed"); return nil }
	})
	require.NoError(t, err)
	_, err = c.GetPet(context.Background(), &petstore.GetPetInput{PetId: "1"}, func(o *petstore.Options) {
		o.BeforeAttempt = func(r *http.Request, _ int) error { r.Header.Set("Traceparent", "t"); return nil }
	})
	require.NoError(t, err)
	_, err = c.GetPet(context.Background(), &petstore.GetPetInput{PetId: "1"})
	require.NoError(t, err)
	require.Equal(t, []string{"signed", "signed"}, auth)
	require.Equal(t, []string{"t", ""}, trace)
}
