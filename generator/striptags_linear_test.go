package generator

import (
	"strings"
	"testing"
	"time"
)

// TestStripTagsLinear: stripTags reads hostile text in time linear in its
// length, as the expression it stands for does (RE2): many "<" before
// one far ">", or many "<!--" with no "-->", are scanned once, not once
// per "<" (review: 400,000 of them took minutes).
func TestStripTagsLinear(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("<b", 200_000) + ">",
		strings.Repeat("<!--", 100_000) + ">",
		strings.Repeat("<!--\n", 100_000) + "-->",
	} {
		start := time.Now()
		got := stripTags(s)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("stripTags of %d bytes took %v", len(s), d)
		}
		if want := stripTagsOracle(s); got != want {
			t.Fatalf("stripTags differs from the expression on %d bytes", len(s))
		}
	}
}
