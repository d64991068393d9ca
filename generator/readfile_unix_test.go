//go:build unix

package generator

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// Only regular files are read: a FIFO (which would block forever) or a
// device such as /dev/zero (which never ends) is refused at the path or
// $ref that names it, and no file may pass MaxInputFileBytes.
func TestOnlyRegularFilesAreRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	_, _, err := LoadService(fifo, nil)
	require.EqualError(t, err, fifo+": not a regular file (a FIFO); retrygen reads only regular files")
	_, _, err = LoadService("/dev/zero", nil)
	require.EqualError(t, err, "/dev/zero: not a regular file (a device); retrygen reads only regular files")
	_, err = ReadInputFile(dir)
	require.EqualError(t, err, dir+": not a regular file (a directory); retrygen reads only regular files")

	spec := filepath.Join(dir, "spec.yaml")
	require.NoError(t, os.WriteFile(spec, []byte("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /x: {$ref: fifo.yaml}\n"), 0o644))
	_, diags, err := LoadService(spec, nil)
	require.Error(t, err)
	require.Equal(t, []string{`error: spec.yaml#/paths/~1x/$ref: $ref "fifo.yaml": file ` + fifo + `: not a regular file (a FIFO); retrygen reads only regular files`}, diagLines(diags))

	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(MaxInputFileBytes+1)) // sparse: no disk used
	require.NoError(t, f.Close())
	_, _, err = LoadService(big, nil)
	require.EqualError(t, err, big+": larger than the limit of 67108864 bytes (64 MiB) for one input file")
}
