package generator

import "fmt"

// Summary is the one line `retrygen generate` prints on stdout:
// "PKG: N operations, N types, N error shapes (transient N, throttling N,
// non-retryable N)". Types counts the named structs and enums; error shapes
// are counted by their class (retry-behavior.md §4).
func (s *Service) Summary(pkg string) string {
	count := map[string]int{}
	for _, e := range s.Errors {
		count[e.Class]++
	}
	return fmt.Sprintf("%s: %d operations, %d types, %d error shapes (transient %d, throttling %d, non-retryable %d)",
		pkg, len(s.Operations), len(s.Types), len(s.Errors), count[ClassTransient], count[ClassThrottling], count[ClassNonRetryable])
}
