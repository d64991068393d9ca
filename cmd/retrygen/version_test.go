package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime"
)

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"-version"}, {"--version"}} {
		code, stdout, stderr := cli(args...)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, "retrygen v"+runtime.Version+"\n", stdout, args)
	}
	code, _, stderr := cli("version", "extra")
	require.Equal(t, 2, code)
	require.Equal(t, "retrygen version: unexpected argument \"extra\"\n", stderr)
}
