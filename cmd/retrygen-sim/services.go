package main

import "github.com/retrygen/retrygen/runtime"

// serviceCache supplies each client group's service. Every group uses the
// simulator's AWS-like service (simService) today; a group taking its
// x-retry from a spec will load it here once.
type serviceCache struct{}

func newServiceCache() *serviceCache { return &serviceCache{} }

func (c *serviceCache) service(sc *Scenario, _ *ClientGroup) (*runtime.Service, error) {
	return simService(sc), nil
}
