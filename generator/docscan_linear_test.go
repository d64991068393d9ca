package generator

import (
	"strings"
	"testing"
	"time"
)

// TestDocScannersLinear: the scanners read hostile text in time linear in
// its length, as the expressions they stand for do (RE2), and give the
// expressions' results on it: many starts before one far end, or none,
// are searched once, not once per start. Half a megabyte each; a scan
// once per start would take minutes.
func TestDocScannersLinear(t *testing.T) {
	const n = 50_000
	hostile := []string{
		strings.Repeat(`<a href="`, n),
		strings.Repeat(`<a href='`, n) + ">",
		strings.Repeat(`<a `, 3*n) + "href='x'>",
		strings.Repeat(`<a `, 3*n) + "></a>",
		strings.Repeat(`<a href=`, n) + "></a>",
		strings.Repeat(`<a>`, 3*n) + "</a>",
		strings.Repeat(`<a href="x" x='`, n) + "></a>",
		strings.Repeat(`<a href="x">`, n),
		strings.Repeat(`<a href=">" `, n) + "</a>",
		strings.Repeat(`<a href=">"</a>'`, n),
		strings.Repeat(`<a href='>' href=">"`, n) + "</a>",
		"</a>" + strings.Repeat(`<a x='>' href=">`, n),
		strings.Repeat(`<a href="x"`, n) + ">" + strings.Repeat("</a", n),
		strings.Repeat("[a](", n),
		strings.Repeat("[", 5*n),
		strings.Repeat("[a](x", n),
		strings.Repeat("[a]", n),
		strings.Repeat("<note", n),
		strings.Repeat("<note>", n) + strings.Repeat("<p", n),
		strings.Repeat("</note ", n),
		strings.Repeat("<li", n),
		strings.Repeat("</ul x", n),
		strings.Repeat("\r", 5*n),
		strings.Repeat("</p", n),
		strings.Repeat("\n \t", n),
		strings.Repeat(" ", 5*n) + "* x",
	}
	for _, s := range hostile {
		for _, c := range scanChecks {
			start := time.Now()
			got := c.got(s)
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("%s of %d bytes (%.20q…) took %v", c.name, len(s), s, d)
			}
			if want := c.want(s); got != want {
				t.Fatalf("%s differs from its expression on %d bytes (%.20q…)", c.name, len(s), s)
			}
		}
		start := time.Now()
		specDocLines(s)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("specDocLines of %d bytes (%.20q…) took %v", len(s), s, d)
		}
	}
}
