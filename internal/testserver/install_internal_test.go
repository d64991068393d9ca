package testserver

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestInstallOnce(t *testing.T) {
	errNPM := errors.New("npm ci failed")
	tests := []struct {
		name string
		// stale prepares dir before the calls (nil: dir does not exist).
		stale func(t *testing.T, dir string)
		// results are the install function's results, one per call, in order.
		results      []error
		wantErrs     []error
		wantInstalls int
		wantMarker   bool
	}{
		{
			name: "first call installs and writes the marker", results: []error{nil},
			wantErrs: []error{nil}, wantInstalls: 1, wantMarker: true,
		},
		{
			name: "a marked directory is not installed again", results: []error{nil, nil, nil},
			wantErrs: []error{nil, nil, nil}, wantInstalls: 1, wantMarker: true,
		},
		{
			name: "a failed install leaves no marker and the next call installs again", results: []error{errNPM, nil},
			wantErrs: []error{errNPM, nil}, wantInstalls: 2, wantMarker: true,
		},
		{
			name: "a failed install returns its error and no marker", results: []error{errNPM},
			wantErrs: []error{errNPM}, wantInstalls: 1, wantMarker: false,
		},
		{
			name: "an unmarked directory from an interrupted install is wiped first",
			stale: func(t *testing.T, dir string) {
				require.NoError(t, os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "node_modules", "half"), nil, 0o644))
			},
			results: []error{nil}, wantErrs: []error{nil}, wantInstalls: 1, wantMarker: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "npm-test")
			if tc.stale != nil {
				tc.stale(t, dir)
			}
			installs := 0
			install := func(d string) error {
				require.Equal(t, dir, d)
				entries, err := os.ReadDir(d)
				require.NoError(t, err)
				require.Empty(t, entries, "install must start in an empty directory")
				err = tc.results[installs]
				installs++
				return err
			}
			for i, want := range tc.wantErrs {
				require.ErrorIs(t, installOnce(dir, install), want, "call %d", i+1)
			}
			require.Equal(t, tc.wantInstalls, installs)
			_, err := os.Stat(filepath.Join(dir, doneMarker))
			require.Equal(t, tc.wantMarker, err == nil, "marker: %v", err)
		})
	}
}

// TestInstallOnceConcurrent checks that the flock lets exactly one of many
// simultaneous callers install; each caller opens the lock file itself, as
// separate test binaries do.
func TestInstallOnceConcurrent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "npm-test")
	const callers = 8
	var installs, inFlight atomic.Int32
	install := func(d string) error {
		if inFlight.Add(1) != 1 {
			return errors.New("two installs ran at once")
		}
		defer inFlight.Add(-1)
		installs.Add(1)
		return os.WriteFile(filepath.Join(d, "package.json"), packageJSON, 0o644)
	}
	startGate := make(chan struct{})
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			<-startGate
			errs[i] = installOnce(dir, install)
		})
	}
	close(startGate)
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "caller %d", i)
	}
	require.Equal(t, int32(1), installs.Load())
}
