// Command retrygen generates typed Go API clients with SDK-grade retries from
// OpenAPI 3 specs, and checks the runtime against cross-SDK retry vectors.
//
// Usage:
//
//	retrygen generate [-config FILE] -spec FILE [-overlay FILE]... -out DIR -package NAME [-strict] [-check] [-link-pagination] [-cpuprofile FILE] [-memprofile FILE]
//	retrygen vectors [-specs DIR] FILE...
//	retrygen explain [-config FILE] -spec FILE [-overlay FILE]... [-operation NAME] [-mode MODE] [-max-attempts N] [-retry-cost-transient TOKENS] [-retry-cost-throttling TOKENS] [-retry-cost-timeout TOKENS] [-no-retry-increment TOKENS] [-retry-quota-capacity TOKENS]
//	retrygen version (or retrygen -version)
//
// Exit status: 0 on success, 1 when the command fails, 2 on bad usage.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/retrygen/retrygen/runtime"
)

// command runs one subcommand with its arguments and returns the exit status.
type command struct {
	run     func(args []string, stdout, stderr io.Writer) int
	summary string
}

var commands = map[string]command{
	"generate": {runGenerate, "generate a Go client from an OpenAPI 3 spec"},
	"vectors":  {runVectors, "run retry conformance vectors against the runtime"},
	"explain":  {runExplain, "print the retry settings a client would resolve here, with their sources"},
	"version":  {runVersion, "print retrygen's version"},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "-version" || args[0] == "--version" {
		return runVersion(args[1:], stdout, stderr)
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "retrygen: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return cmd.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: retrygen <command> [flags]

commands:
  generate   generate a Go client from an OpenAPI 3 spec
  vectors    run retry conformance vectors against the runtime
  explain    print the retry settings a client would resolve here, with their sources
  version    print retrygen's version (also: retrygen -version)

Run "retrygen <command> -h" for the flags of a command.
`)
}

// runVersion implements "retrygen version" and "retrygen -version": it
// prints "retrygen vX.Y.Z", X.Y.Z being runtime.Version, the release the
// generated headers name. It takes no arguments (exit status 2 otherwise).
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "retrygen version: unexpected argument %q\n", args[0])
		return 2
	}
	fmt.Fprintf(stdout, "retrygen v%s\n", runtime.Version)
	return 0
}
