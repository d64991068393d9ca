package main

import (
	"github.com/retrygen/retrygen/runtime"
)

// groupService is the serviceSource of every run: the x-retry settings of
// the group's spec, which LoadScenario loaded and validated before any run,
// or the simulator's AWS-like service when the group names no spec. It
// never fails.
func groupService(sc *Scenario, g *ClientGroup) (*runtime.Service, error) {
	if g.service == nil {
		return simService(sc), nil
	}
	return g.service, nil
}
