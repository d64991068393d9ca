// Command retrygen generates typed Go API clients with SDK-grade retries from
// OpenAPI 3 specs, and checks the runtime against cross-SDK retry vectors.
//
// Usage:
//
//	retrygen generate -spec FILE [-overlay FILE]... -out DIR -package NAME [-check] [-strict] [-cpuprofile FILE] [-memprofile FILE]
//	retrygen vectors FILE...
//	retrygen explain -spec FILE [-overlay FILE]... [-mode MODE] [-max-attempts N]
//
// Exit status: 0 on success, 1 when the command fails, 2 on bad usage.
package main

import (
	"fmt"
	"io"
	"os"
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

Run "retrygen <command> -h" for the flags of a command.
`)
}
