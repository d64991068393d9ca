//go:build realspecs

package golden

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestPackageName(t *testing.T) {
	tests := []struct{ file, want string }{
		{"aws-dynamodb-2012-08-10.openapi.yaml", "awsdynamodb20120810"},
		{"box_openapi.json", "boxopenapi"},
		{"api.github.com.json", "api"},
		{"2fa.json", "spec2fa"},
		{"Ünïcode-API.yaml", "ncodeapi"},
		{"---.json", "spec"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) { require.Equal(t, tc.want, packageName(tc.file)) })
	}
}

func TestFirstCompileErrorSkipsPackageHeaders(t *testing.T) {
	out := "# example.com/p\n# [example.com/p]\np/a.go:3:6: x redeclared\np/a.go:4:6: y undefined\n"
	require.Equal(t, "p/a.go:3:6: x redeclared", firstCompileError(out))
}

func TestOpsCountReadsTheSummary(t *testing.T) {
	require.Equal(t, "296", opsCount("box: 296 operations, 1049 types, 5 error shapes (transient 0, throttling 0, non-retryable 5)"))
}

func TestHeadSaysHowManyLinesWereLeftOut(t *testing.T) {
	require.Equal(t, "a\nb", head("a\nb\n", 2))
	require.Equal(t, "a\n… 2 more lines", head("a\nb\nc\n", 1))
}

func TestReportTable(t *testing.T) {
	r := &report{}
	r.add(&specRow{spec: "ok.yaml", ops: "3", genTime: 1500 * time.Millisecond, genRSS: 30 << 20, warnings: 2, lines: 100,
		buildTime: 250 * time.Millisecond, buildRSS: 60 << 20, status: "ok"})
	r.add(&specRow{spec: "bad.json", status: "fails: generate: a | b"})
	require.Equal(t, "| spec | ops | generate s | generate MiB | warnings | lines | build s | build MiB | status |\n"+
		"|---|---:|---:|---:|---:|---:|---:|---:|---|\n"+
		"| ok.yaml | 3 | 1.50 | 30 | 2 | 100 | 0.25 | 60 | ok |\n"+
		"| bad.json |  | – | – | 0 | 0 | – | – | fails: generate: a \\| b |\n", r.table())
}
