package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// gzipMagic starts every profile pprof writes (gzip-compressed protocol
// buffers).
var gzipMagic = []byte{0x1f, 0x8b}

func TestGenerateProfiles(t *testing.T) {
	tests := []struct {
		name   string
		flag   string
		path   func(dir string) string
		code   int
		stderr string
	}{
		{"-cpuprofile writes a CPU profile", "-cpuprofile", func(dir string) string { return filepath.Join(dir, "cpu.prof") }, 0, ""},
		{"-memprofile writes an allocation profile", "-memprofile", func(dir string) string { return filepath.Join(dir, "mem.prof") }, 0, ""},
		{"-cpuprofile in a missing directory fails naming the flag", "-cpuprofile", func(dir string) string { return filepath.Join(dir, "no", "cpu.prof") }, 1, "retrygen generate: -cpuprofile: open "},
		{"-memprofile in a missing directory fails naming the flag", "-memprofile", func(dir string) string { return filepath.Join(dir, "no", "mem.prof") }, 1, "retrygen generate: -memprofile: open "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, out := setup(t)
			path := tt.path(t.TempDir())
			code, _, stderr := cli("generate", "-spec", spec, "-out", out, "-package", "tiny", tt.flag, path)
			require.Equal(t, tt.code, code, stderr)
			require.Contains(t, stderr, tt.stderr)
			if tt.code != 0 {
				return
			}
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, gzipMagic, b[:2], "a pprof profile")
		})
	}
}
