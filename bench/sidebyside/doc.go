// Package sidebyside benchmarks one DynamoDB GetItem call over a loopback
// socket, made by retrygen's generated client, by hand with net/http, by
// aws-sdk-go-v2 (SigV4 and anonymous), by hashicorp/go-retryablehttp and by
// failsafe-go (issue 12). See bench/README.md for the commands and results.
package sidebyside
