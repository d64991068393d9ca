package golden_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/petstore"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// statusServer answers a script of HTTP statuses in order (then 200 with a
// pet) over a loopback socket and counts the requests.
type statusServer struct {
	mu       sync.Mutex
	statuses []int
	requests int
}

func (s *statusServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	if len(s.statuses) > 0 {
		st := s.statuses[0]
		s.statuses = s.statuses[1:]
		w.WriteHeader(st)
		return
	}
	if r.URL.Path == "/pets" {
		_, _ = w.Write([]byte(`[{"id":1,"name":"Rex"}]`))
		return
	}
	_, _ = w.Write([]byte(`{"id":1,"name":"Rex"}`))
}

// TestSpeakeasyRetries runs the client generated from
// specs/petstore-speakeasy.openapi.yaml, whose retries are declared only
// with x-speakeasy-retries: root {backoff: initialInterval 500, maxInterval
// 60000, maxElapsedTime 5000, exponent 1.5; statusCodes [5XX, 429];
// retryConnectionErrors false}; listPets {initialInterval 100, maxInterval
// 1000, exponent 2, maxElapsedTime 10000, statusCodes [408]}; createPet
// {strategy: none}. Fake clock, rand 0.5 (full jitter: half the ceiling).
func TestSpeakeasyRetries(t *testing.T) {
	type call func(ctx context.Context, c *petstore.Client) (int, error)
	getPet := func(ctx context.Context, c *petstore.Client) (int, error) {
		out, err := c.GetPet(ctx, &petstore.GetPetInput{PetId: "1"})
		if err != nil {
			return 0, err
		}
		require.Equal(t, "Rex", out.Name)
		return out.ResultMetadata.Attempts, nil
	}
	listPets := func(ctx context.Context, c *petstore.Client) (int, error) {
		out, err := c.ListPets(ctx, nil)
		if err != nil {
			return 0, err
		}
		require.Len(t, out.Body, 1)
		return out.ResultMetadata.Attempts, nil
	}
	createPet := func(ctx context.Context, c *petstore.Client) (int, error) {
		out, err := c.CreatePet(ctx, &petstore.Pet{Id: 2, Name: "Fido"})
		if err != nil {
			return 0, err
		}
		return out.ResultMetadata.Attempts, nil
	}
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	tests := []struct {
		name     string
		call     call
		statuses []int
		// wantAttempts is the attempts made; wantErr the error the call
		// ends with ("" for success).
		wantAttempts int
		wantSleeps   []time.Duration
		wantErr      string
	}{
		{
			// Ceilings min(60 s, 500 ms × 1.5^n): 500, 750, 1,125, 1,687.5,
			// 2,531.25, 3,796.875 ms; halved by the jitter. The sixth delay
			// would end at 5,195.3 ms, past the 5,000 ms maxElapsedTime.
			name:         "5XX retried until maxElapsedTime: six attempts",
			call:         getPet,
			statuses:     []int{503, 500, 502, 599, 504, 503, 503},
			wantAttempts: 6,
			wantSleeps:   []time.Duration{ms(250), ms(375), ms(562.5), ms(843.75), ms(1265.625)},
			wantErr:      "deadline",
		},
		{
			name:         "429 is retried (throttling, same base), then success",
			call:         getPet,
			statuses:     []int{429},
			wantAttempts: 2,
			wantSleeps:   []time.Duration{ms(250)},
		},
		{
			name:         "404 is not in statusCodes: one attempt",
			call:         getPet,
			statuses:     []int{404},
			wantAttempts: 1,
			wantErr:      "404",
		},
		{
			// The operation's own extension: 100 ms × 2^n capped at 1 s.
			name:         "listPets retries 408 with its own backoff",
			call:         listPets,
			statuses:     []int{408, 408, 408},
			wantAttempts: 4,
			wantSleeps:   []time.Duration{ms(50), ms(100), ms(200)},
		},
		{
			name:         "listPets does not retry 503 (its statusCodes replace the root's)",
			call:         listPets,
			statuses:     []int{503},
			wantAttempts: 1,
			wantErr:      "503",
		},
		{
			name:         "createPet has strategy none: one attempt",
			call:         createPet,
			statuses:     []int{503},
			wantAttempts: 1,
			wantErr:      "503",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &statusServer{statuses: tt.statuses}
			hs := httptest.NewServer(srv)
			defer hs.Close()
			clock := clocktest.New(fakeClockStart)
			var infos []runtime.AttemptInfo
			c, err := petstore.New(hs.URL, func(o *petstore.Options) {
				o.Clock, o.Rand = clock, func() float64 { return 0.5 }
				o.OnAttempt = func(a runtime.AttemptInfo) { infos = append(infos, a) }
			})
			require.NoError(t, err)
			attempts, err := tt.call(context.Background(), c)
			if tt.wantErr == "" {
				require.NoError(t, err)
				require.Equal(t, tt.wantAttempts, attempts)
			} else {
				require.ErrorContains(t, err, tt.wantErr)
				require.Len(t, infos, tt.wantAttempts)
			}
			require.Equal(t, tt.wantAttempts, srv.requests)
			require.Equal(t, tt.wantSleeps, clock.Sleeps())
		})
	}

	t.Run("connection errors are not retried (retryConnectionErrors: false)", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := l.Addr().String()
		require.NoError(t, l.Close()) // nothing listens there now: connection refused
		clock := clocktest.New(fakeClockStart)
		var infos []runtime.AttemptInfo
		c, err := petstore.New("http://"+addr, func(o *petstore.Options) {
			o.Clock = clock
			o.OnAttempt = func(a runtime.AttemptInfo) { infos = append(infos, a) }
		})
		require.NoError(t, err)
		_, err = c.GetPet(context.Background(), &petstore.GetPetInput{PetId: "1"})
		require.Error(t, err)
		require.Len(t, infos, 1)
		require.Equal(t, engine.ClassNonRetryable, infos[0].Class)
		require.Empty(t, clock.Sleeps())
	})
}
