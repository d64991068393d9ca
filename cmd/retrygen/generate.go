package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/retrygen/retrygen/generator"
)

// overlayFlags collects repeated -overlay flags in order.
type overlayFlags []string

func (o *overlayFlags) String() string     { return strings.Join(*o, ",") }
func (o *overlayFlags) Set(v string) error { *o = append(*o, v); return nil }

// runGenerate implements "retrygen generate": load the spec and its
// overlays, print located diagnostics on stderr, write (or, with -check,
// compare) the generated package in DIR, and print one summary line on
// stdout. Exit status: 0 ok, 1 generation failed or -check found
// differences, 2 bad usage.
func runGenerate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var overlays overlayFlags
	spec := fs.String("spec", "", "OpenAPI 3 spec `FILE` (YAML or JSON); required")
	fs.Var(&overlays, "overlay", "OpenAPI Overlay 1.0 `FILE` applied to the spec before anything else; repeatable, applied in order")
	out := fs.String("out", "", "output `DIR` (created; a symlink is followed): retrygen replaces the files it generated there and leaves every other file alone; required")
	pkg := fs.String("package", "", "Go package `NAME` of the generated client; required")
	config := fs.String("config", "", "read spec, overlays, output, package, strict, include, exclude and rename from the YAML `FILE` (schema: templates/schema/retrygen-config.schema.json); flags override it")
	check := fs.Bool("check", false, "write nothing; exit 1 and print a short diff when DIR differs from what generation would produce")
	strict := fs.Bool("strict", false, "treat every warning as an error: exit 1, writing nothing, when the spec has any")
	linkPages := fs.Bool("link-pagination", false, "page GET operations whose 2xx response declares a Link header, and that declare no pagination, by its rel=\"next\" URL (GitHub's list endpoints)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to `FILE` (read it with go tool pprof)")
	memProfile := fs.String("memprofile", "", "write an allocation profile of the run to `FILE` when it ends (go tool pprof; -sample_index=alloc_space for bytes allocated)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: retrygen generate [-config FILE] -spec FILE [-overlay FILE]... -out DIR -package NAME [-strict] [-check] [-link-pagination] [-cpuprofile FILE] [-memprofile FILE]\n\n"+
			"Generates a typed Go client with SDK-grade retries from an OpenAPI 3 spec.\n"+
			"stdout: one summary line; stderr: located warnings and errors (FILE#/json/pointer: message).\n"+
			"Exit status: 0 ok, 1 generation failed (or -check found differences), 2 bad usage.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	var sel *generator.Selection
	if *config != "" {
		c, err := loadConfig(*config)
		if err != nil {
			printError(stderr, "retrygen generate", err)
			return 1
		}
		set := flagsSet(fs)
		// Flags override the file.
		if !set["spec"] {
			*spec = c.Spec
		}
		if !set["overlay"] {
			overlays = c.Overlays
		}
		if !set["out"] {
			*out = c.Output
		}
		if !set["package"] {
			*pkg = c.Package
		}
		if !set["strict"] {
			*strict = c.Strict
		}
		if set["link-pagination"] {
			c.LinkPagination = *linkPages
		}
		sel = c.selection(*config)
	} else if *linkPages {
		sel = &generator.Selection{LinkPagination: true}
	}
	if msg := usageError(fs, *spec, *out, *pkg); msg != "" {
		fmt.Fprintf(stderr, "retrygen generate: %s\n", escapeLines(msg))
		fs.Usage()
		return 2
	}
	prof, err := startProfiling(*cpuProfile, *memProfile)
	if err != nil {
		printError(stderr, "retrygen generate", err)
		return 1
	}
	job := genJob{spec: *spec, overlays: overlays, out: *out, pkg: *pkg, sel: sel, strict: *strict, check: *check, rerun: rerunCommand(args)}
	code := generate(job, stdout, stderr)
	if err := prof.stop(); err != nil {
		printError(stderr, "retrygen generate", err)
		code = 1
	}
	return code
}

// flagsSet returns the names of the flags given on fs's command line: the
// ones that override a config file.
func flagsSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// genJob is one run of generate, flags and config file merged.
type genJob struct {
	spec     string
	overlays []string
	out, pkg string
	// sel is the config file's selection and renames (nil: none).
	sel           *generator.Selection
	strict, check bool
	// rerun is the command that regenerates out, printed after a -check
	// diff.
	rerun string
}

// generate loads the spec with its overlays and writes (or, with check,
// compares) the package in out; it returns runGenerate's exit status. With
// strict, any warning fails generation. A panic (a bug in retrygen) is exit
// status 1 with "internal error" and the spec location being built, never 2.
func generate(j genJob, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "retrygen generate: %s (please report this with the spec)\n%s",
				escapeLines(fmt.Sprintf("internal error while generating from %s: %v", j.spec, r)), debug.Stack())
			code = 1
		}
	}()
	if fi, err := os.Stat(j.spec); err == nil {
		hugePages(os.Getenv("GOGC"), fi.Size()) // hugepages.go
	}
	floor := newGCFloor(loadingGCPercent, os.Getenv("GOGC"))
	defer floor.stop()
	svc, diags, err := loadLean(j, floor)
	for _, d := range diags {
		if d.Severity == generator.SeverityError {
			fmt.Fprint(stderr, "error: ") // told apart from the warnings around it (trial F14)
		}
		fmt.Fprintln(stderr, d)
	}
	if ie := (*generator.InternalError)(nil); errors.As(err, &ie) {
		fmt.Fprintf(stderr, "retrygen generate: %s\n%s", escapeLines(err.Error()), ie.Stack)
		return 1
	}
	if err != nil {
		printError(stderr, "retrygen generate", err)
		return 1
	}
	if j.strict && len(diags) > 0 {
		fmt.Fprintf(stderr, "retrygen generate: -strict: %d warning(s) in the spec; nothing written\n", len(diags))
		return 1
	}
	files, err := generator.Generate(svc, j.pkg)
	if err == nil {
		files, err = yieldPackageDoc(j.out, files) // pkgdoc.go: one package comment
	}
	if err != nil {
		printError(stderr, "retrygen generate", err)
		return 1
	}
	if j.check {
		diff, err := checkDir(j.out, files)
		if err != nil {
			printError(stderr, "retrygen generate", err)
			return 1
		}
		fmt.Fprintln(stdout, svc.Summary(j.pkg))
		if len(diff) > 0 {
			fmt.Fprintf(stderr, "retrygen generate: %s is not up to date:\n  %s\nto update it, run the same command without -check (its arguments: %s)\n",
				escapeLines(j.out), escapeLines(strings.Join(diff, "\n  ")), escapeLines(j.rerun))
			return 1
		}
		return 0
	}
	if err := writeDir(j.out, files); err != nil {
		printError(stderr, "retrygen generate", err)
		return 1
	}
	fmt.Fprintln(stdout, svc.Summary(j.pkg))
	return 0
}

// loadLean is loadService with the garbage collector's GOGC at
// loadingGCPercent while the spec loads (unless the GOGC environment
// variable sets it; floor is nil then), then one collection. Loading holds the spec's YAML
// tree, then kin-openapi's document beside the model being built (on
// Stripe's spec 50–75 MiB live at once), and the collector lets the heap
// grow to twice what is live by default, further on a loaded machine
// that starves it. What loading built besides the model is garbage once it
// returns: collected then, the heap the collector lets grow while
// rendering is twice the model's, not twice what loading held. floor
// (gcfloor.go) keeps the heap goal at heapFloor or above throughout, and
// takes the GOGC it found as rendering's.
func loadLean(j genJob, floor *gcFloor) (*generator.Service, []generator.Diagnostic, error) {
	defer runtime.GC()
	if floor != nil {
		defer floor.phase(floor.saved)
	}
	return loadService(j.spec, j.overlays, j.sel)
}

// loadingGCPercent is the GOGC loadLean sets while the spec loads: the
// heap grows to 1.5× what is live instead of 2× (issue 24: Stripe with
// its overlay peaks at about 150 MiB instead of 160–190 MiB, for about
// 20 % more CPU time; bench/results.md).
const loadingGCPercent = 50

// loadService is generator.LoadSelected; tests replace it to make loading
// panic.
var loadService = generator.LoadSelected

// rerunCommand is "generate ARGS" with -check removed, each argument
// shell-quoted when it needs to be: the arguments of the command that
// updates the client, without the program, which may be go tool retrygen,
// go run or an installed retrygen.
func rerunCommand(args []string) string {
	parts := []string{"generate"}
	for _, a := range args {
		switch a {
		case "-check", "--check", "-check=true", "--check=true":
			continue
		}
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell unless it holds only characters
// that need no quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// printError prints "PREFIX: ERR" on w, ERR's control characters escaped
// line by line (escapeLines): a path, value or panic from a config file,
// a spec or an overlay cannot drive the terminal.
func printError(w io.Writer, prefix string, err error) {
	fmt.Fprintf(w, "%s: %s\n", prefix, escapeLines(err.Error()))
}

// escapeLines is generator.EscapeControls applied to each line of s, so a
// message of several lines keeps its line breaks.
func escapeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = generator.EscapeControls(l)
	}
	return strings.Join(lines, "\n")
}

// usageError returns what is wrong with the command line, or "".
func usageError(fs *flag.FlagSet, spec, out, pkg string) string {
	switch {
	case fs.NArg() > 0:
		return fmt.Sprintf("unexpected argument %q", fs.Arg(0))
	case spec == "":
		return "-spec is required"
	case out == "":
		return "-out is required"
	case pkg == "":
		return "-package is required"
	case !generator.ValidPackageName(pkg):
		return fmt.Sprintf("-package %q cannot name a generated client (want a Go identifier that is not a keyword, a predeclared name, init, main — a client is imported, never run — or _)", pkg)
	}
	return ""
}
