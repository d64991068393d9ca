package engine

// Server-delay header names (retry-behavior.md §5).
const (
	// HeaderAmzRetryAfter carries a delay in integer milliseconds; the delay
	// becomes max(t, min(v, t + 5 s)) where t is the computed backoff.
	HeaderAmzRetryAfter = "x-amz-retry-after"
	// HeaderRetryAfter is RFC 9110's Retry-After: delta-seconds or an
	// HTTP-date; the delay becomes max(t, v).
	HeaderRetryAfter = "Retry-After"
	// HeaderACSRetryAfter carries a delay in integer milliseconds (Alibaba
	// V2); a positive value makes the response a throttling error and
	// replaces the computed backoff.
	HeaderACSRetryAfter = "x-acs-retry-after"
)

// HeaderThrottlingControl is sent as "x-sdk-throttling-control: enable" on
// every attempt while throttle control is on (§8), as aliyun-java-sdk-core's
// DefaultAcsClient does, so the server reports its throttle headers.
const HeaderThrottlingControl = "X-Sdk-Throttling-Control"
