package main

import (
	"github.com/retrygen/retrygen/runtime"
)

// serviceCache supplies each client group's service: the simulator's
// AWS-like one, or the x-retry settings of the group's spec, which
// LoadScenario loaded and validated before any run.
type serviceCache struct{}

func newServiceCache() *serviceCache { return &serviceCache{} }

func (c *serviceCache) service(sc *Scenario, g *ClientGroup) (*runtime.Service, error) {
	if g.service == nil {
		return simService(sc), nil
	}
	return g.service, nil
}
