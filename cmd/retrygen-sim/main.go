// Command retrygen-sim simulates retry storms before they happen: a
// deterministic discrete-event simulation, in virtual time, of clients
// calling a server through an outage, a brownout, a throttled hot key or
// Alibaba-style throttle windows, once per retry mode. Every retry decision,
// retry quota, CUBIC rate limiter and throttle window is the runtime's own
// code (the step API: Call.Next, RateLimiter.TryAcquireAt) on
// a virtual clock; only the server and the arrival of calls are modelled.
//
//	retrygen-sim -scenario specs/scenarios/outage.yaml -out sim-out [-seed N]
//
// It writes DIR/report.md (per phase and per mode: offered load, server
// load, amplification, goodput, error rate, p50/p99 latency, retry quota,
// adaptive send rate; per outage: when the quota drained and how long
// recovery took) and plots (SVG, and PNG beside each) of server load, goodput and the retry quota
// over time. The same scenario and seed give the same files byte for byte.
// Settings come only from the scenario: the environment and config files are
// ignored. It lives apart from cmd/retrygen so that the generator tool does
// not pull plotting modules into its users' go.mod.
//
// Exit status: 0 success, 1 the simulation or writing failed, 2 bad usage or
// an invalid scenario.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

func realMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("retrygen-sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	scenario := fs.String("scenario", "", "scenario `FILE` (YAML; see specs/scenarios/)")
	out := fs.String("out", "", "output `DIR` for report.md and the plots, SVG and PNG (created if missing)")
	seed := fs.Uint64("seed", 0, "random seed; 0 means the scenario's seed (default 1)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: retrygen-sim -scenario FILE -out DIR [-seed N]\n\nSimulates a scenario for each retry mode in virtual time and writes a report and plots.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *scenario == "" || *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "retrygen-sim: -scenario and -out are required, and nothing else")
		fs.Usage()
		return 2
	}
	sc, err := LoadScenario(*scenario)
	if err != nil {
		fmt.Fprintf(stderr, "retrygen-sim: %v\n", err)
		return 2
	}
	var progress progressFunc
	if isTerminal(stderr) {
		progress = newProgressBar(stderr)
	}
	files, err := simulateAll(sc, *seed, progress)
	if err != nil {
		fmt.Fprintf(stderr, "retrygen-sim: %v\n", err)
		return 1
	}
	if err := writeFiles(*out, files); err != nil {
		fmt.Fprintf(stderr, "retrygen-sim: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(*out, "report.md"))
	return 0
}

// progressFunc reports a run's progress: run i (label) of n, virtual time
// done of total.
type progressFunc func(label string, i, n int, done, total time.Duration)

// simulateAll runs every mode of sc and renders the report and plots.
func simulateAll(sc *Scenario, seed uint64, progress progressFunc) (map[string][]byte, error) {
	if seed == 0 {
		seed = sc.Seed
	}
	if seed == 0 {
		seed = 1
	}
	var runs []*runStats
	n := len(sc.Modes) * len(sc.Sharing)
	for _, sharing := range sc.Sharing {
		for _, mode := range sc.Modes {
			i, label := len(runs), runLabel(sc, mode, sharing)
			var p func(done, total time.Duration)
			if progress != nil {
				p = func(done, total time.Duration) { progress(label, i, n, done, total) }
			}
			r, err := simulate(sc, mode, sharing, seed, groupService, p)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", label, err)
			}
			runs = append(runs, r)
		}
	}
	if progress != nil {
		progress("", n, n, 0, 0)
	}
	files, err := plots(sc, runs, "svg")
	if err != nil {
		return nil, err
	}
	// A PNG beside each SVG, for viewers that do not render SVG.
	pngs, err := plots(sc, runs, "png")
	if err != nil {
		return nil, err
	}
	maps.Copy(files, pngs)
	files["report.md"] = writeReport(sc, seed, runs)
	return files, nil
}

// writeFiles writes every file into dir, each through a temporary file
// renamed into place, so no file is ever half-written. Files are 0644,
// readable by all as a report is meant to be (os.CreateTemp alone gives
// 0600).
func writeFiles(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		tmp, err := os.CreateTemp(dir, "."+name+".*")
		if err != nil {
			return err
		}
		_, err = tmp.Write(files[name])
		if err == nil {
			err = tmp.Chmod(0o644)
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), filepath.Join(dir, name))
		}
		if err != nil {
			os.Remove(tmp.Name())
			return err
		}
	}
	return nil
}

// isTerminal reports whether w is a character device (a terminal), where a
// progress bar is shown.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// newProgressBar draws "standard (2/5) [#####.....]  50%" on one terminal
// line, redrawn at most every 1 %, and clears it at the end.
func newProgressBar(w io.Writer) progressFunc {
	const width = 30
	last := -1
	return func(label string, i, n int, done, total time.Duration) {
		if label == "" {
			fmt.Fprintf(w, "\r%s\r", strings.Repeat(" ", width+40))
			return
		}
		pct := int(100 * done / max(total, 1))
		key := i*101 + pct
		if key == last {
			return
		}
		last = key
		filled := width * pct / 100
		fmt.Fprintf(w, "\r%-9s (%d/%d) [%s%s] %3d%%", label, i+1, n, strings.Repeat("#", filled), strings.Repeat(".", width-filled), pct)
	}
}
