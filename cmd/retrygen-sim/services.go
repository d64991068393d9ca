package main

import (
	"fmt"

	"github.com/retrygen/retrygen/runtime"
)

// serviceCache supplies each client group's service, loading a spec once.
type serviceCache struct {
	bySpec map[string]*runtime.Service
}

func newServiceCache() *serviceCache { return &serviceCache{bySpec: map[string]*runtime.Service{}} }

func (c *serviceCache) service(sc *Scenario, g *ClientGroup) (*runtime.Service, error) {
	if g.Spec == "" {
		return simService(sc), nil
	}
	return nil, fmt.Errorf("client group %s: spec: not supported yet", g.Name)
}
