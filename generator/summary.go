package generator

import (
	"fmt"

	"github.com/retrygen/retrygen/runtime/engine"
)

// Summary is the one line `retrygen generate` prints on stdout:
// "PKG: N operations (N skipped), N types, N error shapes (singular for 1)
// (transient N, throttling N, non-retryable N)". Skipped counts the
// operations left out for a defect of their own (Service.Skipped). Types
// counts the named structs and enums; error shapes are counted by their
// class as the runtime classifies their code (runtime.Service.CodeClass,
// retry-behavior.md §4).
func (s *Service) Summary(pkg string) string {
	count := map[engine.Class]int{}
	for _, e := range s.Errors {
		count[e.Class]++
	}
	return fmt.Sprintf("%s: %s (%d skipped), %s, %s (transient %d, throttling %d, non-retryable %d)",
		pkg, plural(len(s.Operations), "operation"), len(s.Skipped), plural(len(s.Types), "type"), plural(len(s.Errors), "error shape"),
		count[engine.ClassTransient], count[engine.ClassThrottling], count[engine.ClassNonRetryable])
}

// plural renders "1 type", "2 types".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
