//go:build realspecs

package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrygen/retrygen/internal/testserver"
)

// specRow is one spec's line of the realspecs report.
type specRow struct {
	spec string
	// ops is the summary's operation count ("" before generation succeeds).
	ops      string
	genTime  time.Duration // `retrygen generate` wall time
	genRSS   int64         // its peak RSS, bytes
	warnings int
	lines    int // lines in all generated files
	// buildTime and buildRSS measure `go build` of the generated package
	// with its dependencies already compiled (see buildCache).
	buildTime time.Duration
	buildRSS  int64
	// status is "ok", "skipped: …" or "fails: STEP: first error line".
	status string
}

// report collects rows from subtests; safe for concurrent use.
type report struct {
	mu   sync.Mutex
	rows []*specRow
}

func (r *report) add(row *specRow) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rows = append(r.rows, row)
}

// table renders the rows as a Markdown table.
func (r *report) table() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	b.WriteString("| spec | ops | generate s | generate MiB | warnings | lines | build s | build MiB | status |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, x := range r.rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %d | %s | %s | %s |\n", x.spec, x.ops,
			seconds(x.genTime), mibCell(x.genRSS), x.warnings, x.lines, seconds(x.buildTime), mibCell(x.buildRSS),
			strings.ReplaceAll(x.status, "|", `\|`))
	}
	return b.String()
}

func seconds(d time.Duration) string {
	if d == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", d.Seconds())
}

func mibCell(b int64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", mib(b))
}

// write logs the table and writes it to $RETRYGEN_REALSPECS_REPORT, else
// to realspecs-report.txt in the test cache directory (RETRYGEN_CACHE).
func (r *report) write(t *testing.T) {
	path := os.Getenv("RETRYGEN_REALSPECS_REPORT")
	if path == "" {
		path = filepath.Join(testserver.CacheDir(t), "realspecs-report.txt")
	}
	table := r.table()
	t.Logf("realspecs report (also in %s):\n%s", path, table)
	header := fmt.Sprintf("retrygen realspecs tier, %s\n\n", time.Now().UTC().Format(time.RFC3339))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Errorf("writing the report: %v", err)
		return
	}
	if err := os.WriteFile(path, []byte(header+table), 0o644); err != nil {
		t.Errorf("writing the report: %v", err)
	}
}
