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
	specs := []struct {
		file, title, y string
		series         func(*runStats) []float64
		capacity       bool
	}{
		{serverLoadPlot, "Server load: " + sc.Name, "requests/s at the server", func(r *runStats) []float64 { return perSec(r, r.serverReq) }, true},
		{goodputPlot, "Goodput: " + sc.Name, "successful calls/s", func(r *runStats) []float64 { return perSec(r, r.succeeded) }, false},
		{quotaPlot, "Retry quota: " + sc.Name, "mean retry quota balance (tokens)", func(r *runStats) []float64 { return r.quota }, false},
	}
	for _, sp := range specs {
		p := plot.New()
		p.Title.Text = sp.title
		p.X.Label.Text = "time (s)"
		p.Y.Label.Text = sp.y
		p.Y.Min = 0
		p.Legend.Top = true
		p.Add(plotter.NewGrid())
		for _, r := range runs {
			if sp.file == quotaPlot && !usesQuota(r.mode) {
				continue // no retry quota in this mode
			}
			l, err := plotter.NewLine(xys(r, sp.series(r)))
			if err != nil {
				return nil, err
			}
			l.Color = modeColors[r.mode]
			l.Width = vg.Points(1.2)
			p.Add(l)
			if r.sharing == sharingShared {
				l.Dashes = []vg.Length{vg.Points(6), vg.Points(2)}
			}
			p.Legend.Add(r.label, l)
		}
		// Headroom above the highest line keeps the legend off the lines.
		p.Y.Max *= 1.35
		if sp.capacity {
			l, err := plotter.NewLine(xys(runs[0], capacity))
			if err != nil {
				return nil, err
			}
			l.Color = color.Black
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(l)
			p.Legend.Add("capacity", l)
		}
		wt, err := p.WriterTo(9*vg.Inch, 4.5*vg.Inch, format)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sp.file, err)
		}
		var b bytes.Buffer
		if _, err := wt.WriteTo(&b); err != nil {
			return nil, fmt.Errorf("%s: %w", sp.file, err)
		}
		out[strings.TrimSuffix(sp.file, ".svg")+"."+format] = b.Bytes()
	}
	return out, nil
}

// xys places each bucket's value at the bucket's end time, in seconds.
func xys(r *runStats, v []float64) plotter.XYs {
	pts := make(plotter.XYs, len(v))
	for i, y := range v {
		pts[i] = plotter.XY{X: (r.bucket * time.Duration(i+1)).Seconds(), Y: y}
	}
	return pts
}
