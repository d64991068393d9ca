package main

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/retrygen/retrygen/runtime"
)

// modeColors gives each mode the same colour in every plot.
var modeColors = map[string]color.RGBA{
	string(runtime.ModeLegacy):   {R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	string(runtime.ModeStandard): {R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	string(runtime.ModeAdaptive): {R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	string(runtime.ModeAliyun):   {R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	modeNone:                     {R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff},
}

// modeDashes gives each mode its own dash pattern as well as its colour, so
// a reader without colour can tell the lines apart. Standard, the mode the
// others are compared with, is a wide solid line drawn first: a mode whose
// line coincides with it (adaptive before any throttling) is drawn on top
// and standard still shows around it.
var modeDashes = map[string][]vg.Length{
	string(runtime.ModeStandard): nil,
	string(runtime.ModeLegacy):   {vg.Points(7), vg.Points(3)},
	string(runtime.ModeAdaptive): {vg.Points(2), vg.Points(2)},
	string(runtime.ModeAliyun):   {vg.Points(9), vg.Points(3), vg.Points(2), vg.Points(3)},
	modeNone:                     {vg.Points(1), vg.Points(4)},
}

// lineWidth is a run's line width: standard's wide line lies under the
// others; a shared run's line is wider than its per-process twin's.
func lineWidth(r *runStats) vg.Length {
	w := vg.Points(1.4)
	if r.mode == string(runtime.ModeStandard) {
		w = vg.Points(3.2)
	}
	if r.sharing == sharingShared {
		w += vg.Points(1.2)
	}
	return w
}

// Plot geometry: the data area is plotWidth wide; the legend sits in its
// own column to the right, as wide as its longest entry needs, so it never
// covers a line and is never clipped.
const (
	plotWidth  = 9 * vg.Inch
	plotHeight = 4.5 * vg.Inch
)

// drawOrder returns runs with the standard-mode runs first, so the
// narrower lines of the other modes are drawn over their wide line.
func drawOrder(runs []*runStats) []*runStats {
	out := make([]*runStats, 0, len(runs))
	for _, standard := range []bool{true, false} {
		for _, r := range runs {
			if (r.mode == string(runtime.ModeStandard)) == standard {
				out = append(out, r)
			}
		}
	}
	return out
}

// plots renders the plots in format ("svg"; "png" for a raster copy): server
// load (with the capacity), goodput and the mean retry quota over time, one
// line per mode. Files are named as the SVG plots, with format's extension.
func plots(sc *Scenario, runs []*runStats, format string) (map[string][]byte, error) {
	perSec := func(r *runStats, v []int64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = float64(x) / r.bucket.Seconds()
		}
		return out
	}
	capacity := make([]float64, len(runs[0].offered))
	for i := range capacity {
		t := runs[0].bucket * time.Duration(i)
		capacity[i] = sc.Server.Capacity
		for pi, p := range runs[0].phases {
			if t >= p.start && t < p.end {
				capacity[i] *= sc.Phases[pi].CapacityFactor
			}
		}
	}
	out := map[string][]byte{}
	type spec struct {
		file, title, y string
		series         func(*runStats) []float64
		capacity       bool
	}
	specs := []spec{
		{serverLoadPlot, "Server load: " + sc.Name, "requests/s at the server", func(r *runStats) []float64 { return perSec(r, r.serverReq) }, true},
		{goodputPlot, "Goodput: " + sc.Name, "successful calls/s", func(r *runStats) []float64 { return perSec(r, r.succeeded) }, false},
		{quotaPlot, "Retry quota: " + sc.Name, "mean retry quota balance (tokens)", func(r *runStats) []float64 { return r.quota }, false},
	}
	if hasFleetBudget(runs) {
		specs = append(specs, spec{fleetBudgetPlot, "Fleet retry budget: " + sc.Name, "shared fleet retry budget balance (tokens)", func(r *runStats) []float64 { return r.fleetBudget }, false})
	}
	// The user limit (Alibaba, per user and window) as a rate, for every
	// user the clients call as: the most the server lets through.
	var userLimit []float64
	if u := sc.Server.UserLimit; u != nil && u.WindowMs > 0 {
		users := map[string]bool{}
		n := 0
		for _, g := range sc.Clients {
			if g.User == "" {
				n += g.Count
			} else if !users[g.User] {
				users[g.User] = true
				n++
			}
		}
		userLimit = make([]float64, len(capacity))
		for i := range userLimit {
			userLimit[i] = float64(n*u.Limit) * 1000 / float64(u.WindowMs)
		}
	}
	for _, sp := range specs {
		p := plot.New()
		p.Title.Text = sp.title
		p.X.Label.Text = "time (s)"
		p.Y.Label.Text = sp.y
		p.Y.Min = 0
		p.Add(plotter.NewGrid())
		leg := plot.NewLegend()
		leg.Top, leg.Left = true, true
		leg.ThumbnailWidth = vg.Points(28)
		ymax := 0.0
		for _, r := range runs {
			if sp.file == quotaPlot && !usesQuota(r.mode) || sp.file == fleetBudgetPlot && r.fleetBudget == nil {
				continue // no retry quota (fleet budget) in this run
			}
			for _, y := range sp.series(r) {
				ymax = max(ymax, y)
			}
		}
		if sp.capacity {
			for _, y := range capacity {
				ymax = max(ymax, y)
			}
			for _, y := range userLimit {
				ymax = max(ymax, y)
			}
		}
		ymax = max(ymax*1.12, 1) // room for the phase names above the lines
		p.Y.Max = ymax
		phaseMarks, err := phaseLines(sc, runs[0], ymax)
		if err != nil {
			return nil, err
		}
		p.Add(phaseMarks...)
		lines := map[*runStats]*plotter.Line{}
		for _, r := range drawOrder(runs) {
			if sp.file == quotaPlot && !usesQuota(r.mode) || sp.file == fleetBudgetPlot && r.fleetBudget == nil {
				continue
			}
			l, err := plotter.NewLine(xys(r, sp.series(r)))
			if err != nil {
				return nil, err
			}
			l.Color = modeColors[r.mode]
			l.Dashes = modeDashes[r.mode]
			l.Width = lineWidth(r)
			p.Add(l)
			lines[r] = l
		}
		var labels []string
		for _, r := range runs { // the legend keeps the scenario's order
			if l := lines[r]; l != nil {
				leg.Add(r.label, l)
				labels = append(labels, r.label)
			}
		}
		if sp.capacity {
			refs := []struct {
				name string
				v    []float64
			}{{"capacity", capacity}, {"user limit", userLimit}}
			for i, ref := range refs {
				if ref.v == nil {
					continue
				}
				l, err := plotter.NewLine(xys(runs[0], ref.v))
				if err != nil {
					return nil, err
				}
				l.Color = color.Black
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
				if i == 1 {
					l.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
				}
				p.Add(l)
				leg.Add(ref.name, l)
				labels = append(labels, ref.name)
				last := xys(runs[0], ref.v)[len(ref.v)-1]
				lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{last}, Labels: []string{ref.name}})
				if err != nil {
					return nil, err
				}
				lbl.TextStyle[0].XAlign = draw.XRight
				lbl.TextStyle[0].YAlign = draw.YBottom
				p.Add(lbl)
			}
		}
		b, err := render(p, &leg, labels, format)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sp.file, err)
		}
		out[strings.TrimSuffix(sp.file, ".svg")+"."+format] = b
	}
	return out, nil
}

// hasFleetBudget reports whether a run shared a fleet retry budget.
func hasFleetBudget(runs []*runStats) bool {
	for _, r := range runs {
		if r.fleetBudget != nil {
			return true
		}
	}
	return false
}

// xys places each bucket's value at the bucket's end time, in seconds.
func xys(r *runStats, v []float64) plotter.XYs {
	pts := make(plotter.XYs, len(v))
	for i, y := range v {
		pts[i] = plotter.XY{X: (r.bucket * time.Duration(i+1)).Seconds(), Y: y}
	}
	return pts
}

// render draws p into the data area and leg, whose entries are labels, into
// a column of its own to the right, in format ("svg" or "png").
func render(p *plot.Plot, leg *plot.Legend, labels []string, format string) ([]byte, error) {
	legendWidth := vg.Length(0)
	for _, e := range labels {
		legendWidth = max(legendWidth, leg.TextStyle.Width(e))
	}
	legendWidth += leg.ThumbnailWidth + 3*leg.Padding + vg.Points(12)
	c, err := draw.NewFormattedCanvas(plotWidth+legendWidth, plotHeight, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	legendArea := draw.Crop(dc, plotWidth, 0, 0, -p.Title.TextStyle.Height(p.Title.Text)-p.Title.Padding)
	leg.Draw(legendArea)
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// phaseLines marks each phase boundary with a grey vertical line and writes
// each phase's name at the top of its stretch, so a reader sees when the
// outage began and ended without reading the report.
func phaseLines(sc *Scenario, r *runStats, ymax float64) ([]plot.Plotter, error) {
	var out []plot.Plotter
	var pts plotter.XYs
	var names []string
	for i, ph := range r.phases {
		if i > 0 {
			x := ph.start.Seconds()
			l, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: ymax}})
			if err != nil {
				return nil, err
			}
			l.Color = color.Gray{Y: 0x70}
			l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
			l.Width = vg.Points(0.8)
			out = append(out, l)
		}
		pts = append(pts, plotter.XY{X: ph.start.Seconds() + (ph.end-ph.start).Seconds()/2, Y: ymax})
		names = append(names, sc.Phases[i].Name)
	}
	lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: names})
	if err != nil {
		return nil, err
	}
	for i := range lbl.TextStyle {
		lbl.TextStyle[i].XAlign = draw.XCenter
		lbl.TextStyle[i].YAlign = draw.YTop
		lbl.TextStyle[i].Color = color.Gray{Y: 0x40}
	}
	return append(out, lbl), nil
}
