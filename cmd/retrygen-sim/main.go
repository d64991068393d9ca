// Command retrygen-sim simulates retry storms before they happen: a
// deterministic discrete-event simulation, in virtual time, of clients
// calling a server through an outage, a brownout, a throttled hot key or
// Alibaba-style throttle windows, once per retry mode. Every retry decision,
// retry quota, CUBIC rate limiter and throttle window is the runtime's own
// code (the step API of runtime/engine: Call.Next, RateLimiter.TryAcquireAt) on
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
	goruntime "runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"
)

func main() {
	if limit, ok := memoryLimit(os.LookupEnv); ok {
		debug.SetMemoryLimit(limit)
	}
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

// defaultMemoryLimit is the soft limit of the Go heap the simulator sets
// (runtime/debug.SetMemoryLimit) when GOMEMLIMIT is not set: 900 MiB. The
// garbage collector then runs more often as the heap nears it, rather than
// letting the heap reach twice what is live (GOGC=100): the runs of a
// large fleet (50,000 clients, two runs at once) keep their peak within
// 1 GiB. Below it nothing changes: a run allocates little per event, so
// collections stay rare.
const defaultMemoryLimit = 900 << 20

// memoryLimit returns the memory limit to set, and false when GOMEMLIMIT
// (looked up with lookup) is set: the user's limit stands.
func memoryLimit(lookup func(string) (string, bool)) (int64, bool) {
	if v, ok := lookup("GOMEMLIMIT"); ok && v != "" {
		return 0, false
	}
	return defaultMemoryLimit, true
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
	var files map[string][]byte
	start := time.Now()
	if isTerminal(stderr) {
		progress = newProgressBar(stderr)
	} else {
		progress = newProgressLines(stderr, start, time.Now)
	}
	runs, err := simulateRuns(sc, *seed, progress)
	if err == nil {
		files, err = renderRuns(sc, *seed, runs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "retrygen-sim: %v\n", err)
		return 1
	}
	if err := writeFiles(*out, files); err != nil {
		fmt.Fprintf(stderr, "retrygen-sim: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", filepath.Join(*out, "report.md"), summary(runs, time.Since(start)))
	return 0
}

// progressFunc reports the progress of all runs together: finished of n
// runs, and the virtual time done of total summed over every run.
type progressFunc func(finished, n int, done, total time.Duration)

// simulateAll runs every mode of sc and renders the report and plots.
func simulateAll(sc *Scenario, seed uint64, progress progressFunc) (map[string][]byte, error) {
	runs, err := simulateRuns(sc, seed, progress)
	if err != nil {
		return nil, err
	}
	return renderRuns(sc, seed, runs)
}

// simulateRuns runs every mode of sc (with sharing, each run of the
// report), in the report's order. The runs are independent (each has its
// own clients, server and random sources from seed), so they run in
// parallel, at most GOMAXPROCS at once; the same seed gives the same files
// byte for byte however many run at once.
func simulateRuns(sc *Scenario, seed uint64, progress progressFunc) ([]*runStats, error) {
	if seed == 0 {
		seed = sc.Seed
	}
	if seed == 0 {
		seed = 1
	}
	type job struct{ mode, sharing, label string }
	var jobs []job
	for _, sharing := range sc.Sharing {
		for _, mode := range sc.Modes {
			jobs = append(jobs, job{mode, sharing, runLabel(sc, mode, sharing)})
		}
	}
	n := len(jobs)
	runs, errs := make([]*runStats, n), make([]error, n)
	var mu sync.Mutex
	done, total := make([]time.Duration, n), make([]time.Duration, n)
	for i := range total { // every run simulates the phases, from the start
		for _, p := range sc.Phases {
			total[i] += seconds(p.DurationS)
		}
	}
	finished := 0
	report := func() { // with mu held
		if progress != nil {
			var d, t time.Duration
			for i := range done {
				d, t = d+done[i], t+total[i]
			}
			progress(finished, n, d, t)
		}
	}
	sem := make(chan struct{}, goruntime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			p := func(d, t time.Duration) {
				mu.Lock()
				done[i], total[i] = d, t
				report()
				mu.Unlock()
			}
			runs[i], errs[i] = simulate(sc, j.mode, j.sharing, seed, groupService, p)
			mu.Lock()
			finished++
			report()
			mu.Unlock()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", jobs[i].label, err)
		}
	}
	if progress != nil {
		progress(-1, n, 0, 0) // clear the bar
	}
	return runs, nil
}

// renderRuns renders the report and the plots of runs, simulated with seed.
func renderRuns(sc *Scenario, seed uint64, runs []*runStats) (map[string][]byte, error) {
	if seed == 0 {
		seed = sc.Seed
	}
	if seed == 0 {
		seed = 1
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

// newProgressBar draws "simulating (2/5 runs done) [#####.....]  50%" on
// one terminal line, redrawn at most every 1 %, and clears it when called
// with finished < 0.
func newProgressBar(w io.Writer) progressFunc {
	const width = 30
	last := -1
	return func(finished, n int, done, total time.Duration) {
		if finished < 0 {
			fmt.Fprintf(w, "\r%s\r", strings.Repeat(" ", width+50))
			return
		}
		pct := int(100 * done / max(total, 1))
		key := finished*101 + pct
		if key == last {
			return
		}
		last = key
		filled := width * pct / 100
		fmt.Fprintf(w, "\rsimulating (%d/%d runs done) [%s%s] %3d%%", finished, n, strings.Repeat("#", filled), strings.Repeat(".", width-filled), pct)
	}
}

// progressEvery is how long a run without a terminal may go without a
// progress line (newProgressLines).
const progressEvery = 30 * time.Second

// newProgressLines reports progress where no bar can be drawn (stderr is a
// file or a pipe, as under a CI job or timeout(1)): one line at each tenth of
// the virtual time simulated over all runs, and at least every progressEvery
// of wall time (now, from start) while the runs go on, so a run stopped
// early says how far it got; "100%" when every run has finished. At most ten
// lines plus one per progressEvery.
func newProgressLines(w io.Writer, start time.Time, now func() time.Time) progressFunc {
	lastTenth, lastAt := 0, start
	return func(finished, n int, done, total time.Duration) {
		if finished < 0 {
			return
		}
		pct := int(100 * done / max(total, 1))
		if finished < n {
			pct = min(pct, 99) // 100 % once every run has finished
		}
		t := now()
		if pct/10 <= lastTenth && t.Sub(lastAt) < progressEvery {
			return
		}
		lastTenth, lastAt = max(lastTenth, pct/10), t
		fmt.Fprintf(w, "retrygen-sim: %d%% simulated (%d/%d runs done) in %s\n", pct, finished, n, t.Sub(start).Round(100*time.Millisecond))
	}
}

// summary is the one line printed when the files are written: runs,
// clients, simulated time, events and the wall time they took.
func summary(runs []*runStats, took time.Duration) string {
	var events uint64
	for _, r := range runs {
		events += r.events
	}
	simulated := time.Duration(len(runs[0].offered)) * runs[0].bucket
	return fmt.Sprintf("%d runs, %s simulated each, %d events in %s", len(runs), simulated, events, took.Round(time.Millisecond))
}
