// Package testserver installs and starts the real servers that retrygen's
// tests talk to: dynalite (DynamoDB), kinesalite (Kinesis) and Prism (a mock
// server that validates every request against an OpenAPI spec).
//
// The servers come from the npm registry, pinned by the committed
// npm/package.json and npm/package-lock.json. [Install] runs `npm ci` once per
// machine into a cache directory shared by every test binary; the Start
// functions run each server on a free 127.0.0.1 port for the duration of one
// test and kill it in t.Cleanup.
//
// Environment:
//   - RETRYGEN_CACHE: parent directory of the npm install (default
//     os.UserCacheDir()/retrygen).
//   - RETRYGEN_SKIP_SERVERS=1: every test that needs a server is skipped
//     with a message saying so, instead of installing and starting it.
//
// Only tests import this package.
package testserver
