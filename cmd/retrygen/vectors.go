package main

import (
	"fmt"
	"io"
)

// runVectors implements "retrygen vectors" (owned by the runtime work).
func runVectors(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "retrygen vectors: not implemented yet")
	return 1
}
