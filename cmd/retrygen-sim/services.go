package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/retrygen/retrygen/generator"
	"github.com/retrygen/retrygen/runtime"
)

// serviceCache supplies each client group's service: the simulator's
// AWS-like one, or the x-retry settings of the group's spec, loaded once.
type serviceCache struct {
	bySpec map[string]*runtime.Service
}

func newServiceCache() *serviceCache { return &serviceCache{bySpec: map[string]*runtime.Service{}} }

func (c *serviceCache) service(sc *Scenario, g *ClientGroup) (*runtime.Service, error) {
	if g.Spec == "" {
		return simService(sc), nil
	}
	spec := filepath.Join(sc.dir, g.Spec)
	overlays := make([]string, len(g.Overlays))
	for i, o := range g.Overlays {
		overlays[i] = filepath.Join(sc.dir, o)
	}
	key := strings.Join(append([]string{spec}, overlays...), "\x00")
	if svc, ok := c.bySpec[key]; ok {
		return svc, nil
	}
	loaded, _, err := generator.LoadService(spec, overlays)
	if err != nil {
		return nil, fmt.Errorf("client group %s: %w", g.Name, err)
	}
	svc := loaded.Retry
	// The environment and config files never apply in a simulation.
	svc.EnvPrefix = ""
	c.bySpec[key] = &svc
	return &svc, nil
}
