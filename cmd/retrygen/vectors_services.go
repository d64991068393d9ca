package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/retrygen/retrygen/generator"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/engine"
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
	ServerDelayHeaders: []string{engine.HeaderAmzRetryAfter, engine.HeaderRetryAfter},
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

// loadVectorService reads DIR/NAME.overlay.yaml, loads the spec its
// `extends` names (relative to DIR) with that overlay, and returns the
// runtime.Service the generator builds from them (generator.LoadRetryService).
func loadVectorService(dir, name string) (*runtime.Service, error) {
	overlayPath := filepath.Join(dir, name+".overlay.yaml")
	data, err := os.ReadFile(overlayPath)
	if err != nil {
		return nil, fmt.Errorf("service %q: %w", name, err)
	}
	var head struct {
		Extends string `yaml:"extends"`
	}
	if err := yaml.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("service %q: %s: %w", name, overlayPath, err)
	}
	if head.Extends == "" || filepath.IsAbs(head.Extends) || strings.Contains(head.Extends, "://") {
		return nil, fmt.Errorf("service %q: %s: extends must name a spec file in %s, got %q", name, overlayPath, dir, head.Extends)
	}
	svc, diags, err := generator.LoadRetryService(filepath.Join(dir, head.Extends), []string{overlayPath})
	if err != nil {
		var located []string
		for _, d := range diags {
			if d.Severity == generator.SeverityError {
				located = append(located, d.String())
			}
		}
		if len(located) > 0 {
			return nil, fmt.Errorf("service %q: %w:\n  %s", name, err, strings.Join(located, "\n  "))
		}
		return nil, fmt.Errorf("service %q: %w", name, err)
	}
	return svc, nil
}
