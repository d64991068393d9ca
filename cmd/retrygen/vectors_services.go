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

// loadVectorService reads DIR/NAME.overlay.yaml, loads the spec its
// `extends` names (relative to DIR) with that overlay, and converts the
// resulting x-retry settings to a runtime.Service.
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
	svc, _, err := generator.LoadService(filepath.Join(dir, head.Extends), []string{overlayPath})
	if err != nil {
		return nil, fmt.Errorf("service %q: %w", name, err)
	}
	return runtimeService(svc.Title, &svc.Retry), nil
}

// runtimeService converts a spec's x-retry settings to the runtime's form,
// field for field, as the generated client's service literal does.
func runtimeService(name string, r *generator.RetrySettings) *runtime.Service {
	svc := &runtime.Service{
		Name:               name,
		EnvPrefix:          r.EnvPrefix,
		DefaultMode:        runtime.Mode(r.Mode),
		Defaults:           modeDefaults(r.Defaults),
		TransientCodes:     r.TransientCodes,
		ThrottlingCodes:    r.ThrottlingCodes,
		NonRetryableCodes:  r.NonRetryableCodes,
		Bare429NotRetried:  r.Bare429NotRetried,
		ErrorCodeHeaders:   r.ErrorCodeHeaders,
		ErrorCodeFields:    r.ErrorCodeFields,
		ErrorMessageFields: r.ErrorMessageFields,
		RequestIDHeaders:   r.RequestIDHeaders,
		RequestIDFields:    r.RequestIDFields,
		ServerDelayHeaders: r.ServerDelayHeaders,
		RetrySafe:          r.RetrySafe,
		AttemptHeader:      r.AttemptHeader,
		InvocationIDHeader: r.InvocationIDHeader,
		ChecksumHeader:     r.ChecksumHeader,
	}
	if len(r.Modes) > 0 {
		svc.PerMode = make(map[runtime.Mode]runtime.ModeDefaults, len(r.Modes))
		for mode, m := range r.Modes {
			svc.PerMode[runtime.Mode(mode)] = modeDefaults(m)
		}
	}
	if tc := r.ThrottleControl; tc != nil {
		svc.ThrottleControl = &runtime.ThrottleControl{
			UserAPIHeader: tc.UserAPIHeader, UserHeader: tc.UserHeader,
			MaxDelay: tc.MaxDelay, RetryStatuses: tc.RetryStatuses,
		}
	}
	return svc
}

var jitters = map[string]runtime.Jitter{
	"": runtime.JitterDefault, "full": runtime.JitterFull, "equal": runtime.JitterEqual, "none": runtime.JitterNone,
}

func modeDefaults(m generator.ModeSettings) runtime.ModeDefaults {
	return runtime.ModeDefaults{
		MaxAttempts:         m.MaxAttempts,
		TransientBaseDelay:  m.TransientBaseDelay,
		ThrottlingBaseDelay: m.ThrottlingBaseDelay,
		MaxBackoff:          m.MaxBackoff,
		Jitter:              jitters[m.Jitter],
	}
}
