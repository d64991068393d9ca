package runtime

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestEqualJitter(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name     string
		maxDelay time.Duration
		k        int
		r        float64
		want     time.Duration
	}{
		{"first retry (k=1), r=0: ceil/2 of 200 ms", 20 * time.Second, 1, 0, 100 * ms},
		{"first retry (k=1), r=1: all of 200 ms", 20 * time.Second, 1, 1, 200 * ms},
		{"second retry (k=2), r=0.5: 200 + 100 ms", 20 * time.Second, 2, 0.5, 300 * ms},
		{"third retry (k=3), r=1: 800 ms", 20 * time.Second, 3, 1, 800 * ms},
		{"k=7 is 12.8 s, below the cap", 20 * time.Second, 7, 1, 12800 * ms},
		{"k=8 is capped at max delay 20 s", 20 * time.Second, 8, 1, 20 * time.Second},
		{"capped ceil with r=0 is half max delay", 20 * time.Second, 8, 0, 10 * time.Second},
		{"cap at 1 s binds at k=4", time.Second, 4, 0.5, 750 * ms},
		{"k=63 saturates to max delay", 20 * time.Second, 63, 1, 20 * time.Second},
		{"k=10000 saturates to max delay, never negative", 20 * time.Second, 10000, 0.25, 12500 * ms},
		{"huge max delay: k=10000 stays at the cap", tooLong, 10000, 1, tooLong},
		// ceil/2 = 2^62-1, span 2^62, (1-2^-53) × 2^62 = 2^62 - 512.
		{"huge max delay, r just below 1 stays below the cap without overflow", tooLong, 10000, math.Nextafter(1, 0), tooLong - 512},
		{"odd ceiling: r=1 gives exactly the ceiling", 301, 5, 1, 301},
		{"odd ceiling: r=0 gives its floor half", 301, 5, 0, 150},
		{"r above 1 is clamped to 1", 20 * time.Second, 1, 7, 200 * ms},
		{"negative r is clamped to 0", 20 * time.Second, 1, -3, 100 * ms},
		{"NaN r counts as 0", 20 * time.Second, 1, math.NaN(), 100 * ms},
		{"negative k counts as 0", 20 * time.Second, -4, 1, 100 * ms},
		{"zero max delay gives 0", 0, 3, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, equalJitter(aliyunBaseDelay, tt.maxDelay, 0, tt.k, tt.r))
		})
	}
}

func TestEqualJitterNeverNegativeNorAboveMaxDelay(t *testing.T) {
	for _, maxDelay := range []time.Duration{1, 20 * time.Second, tooLong} {
		for k := 0; k <= 10000; k++ {
			for _, r := range []float64{0, 0.5, math.Nextafter(1, 0), 1} {
				d := equalJitter(aliyunBaseDelay, maxDelay, 0, k, r)
				if d < 0 || d > maxDelay {
					t.Fatalf("equalJitter(max %v, k %d, r %v) = %v", maxDelay, k, r, d)
				}
			}
		}
	}
}
