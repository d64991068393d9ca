package main

import (
	"fmt"
	"io"
)

// runGenerate implements "retrygen generate" (owned by the generator work).
func runGenerate(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "retrygen generate: not implemented yet")
	return 1
}
