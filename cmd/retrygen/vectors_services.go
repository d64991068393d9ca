package main

import (
	"fmt"
	"sync"

	"github.com/retrygen/retrygen/runtime"
)

// serviceLoader supplies the runtime.Service a vector scenario runs against:
// a generic service for scenarios without `service`, else the x-retry
// defaults the project declares for that service in DIR/NAME.overlay.yaml.
// Loaded services are cached. The environment and config file never apply to
// vectors (EnvPrefix is cleared), so a developer's AWS_RETRY_MODE cannot
// change a verdict.
type serviceLoader struct {
	dir   string
	mu    sync.Mutex
	cache map[string]*runtime.Service
}

// genericVectorService is the service of scenarios that name none: AWS
// conventions, both AWS server-delay headers honoured.
var genericVectorService = runtime.Service{
	Name:               "vectors",
	ErrorCodeHeaders:   []string{vectorErrorHeader},
	ServerDelayHeaders: []string{runtime.HeaderAmzRetryAfter, runtime.HeaderRetryAfter},
}

func (l *serviceLoader) service(name string) (*runtime.Service, error) {
	if name == "" {
		svc := genericVectorService
		return &svc, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if svc, ok := l.cache[name]; ok {
		return svc, nil
	}
	svc, err := loadVectorService(l.dir, name)
	if err != nil {
		return nil, err
	}
	svc.EnvPrefix = ""
	if l.cache == nil {
		l.cache = map[string]*runtime.Service{}
	}
	l.cache[name] = svc
	return svc, nil
}

// loadVectorService reads DIR/NAME.overlay.yaml and the spec it extends.
func loadVectorService(dir, name string) (*runtime.Service, error) {
	return nil, fmt.Errorf("service %q: loading x-retry from %s is not wired yet", name, dir)
}
