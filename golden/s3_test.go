package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/generator"
)

// TestS3XMLRoundTrip (issue 20, "What must be shown" 1 and 3) generates the
// S3 client (../shared/specs, with specs/s3.overlay.yaml) into a temporary
// package inside the module and runs testdata/s3/calls_test.go in it:
// ListObjectsV2, PutBucketTagging/GetBucketTagging and
// CompleteMultipartUpload as typed XML, byte-exact both ways.
func TestS3XMLRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated client")
	}
	spec := filepath.Join("..", "..", "shared", "specs", "aws-s3-2006-03-01.openapi.yaml")
	if _, err := os.Stat(spec); err != nil {
		t.Skipf("the S3 spec is not next to the checkout: %v", err)
	}
	svc, _, err := generator.LoadService(spec, []string{filepath.Join("..", "specs", "s3.overlay.yaml")})
	require.NoError(t, err)
	files, err := generator.Generate(svc, "s3")
	require.NoError(t, err)
	calls, err := os.ReadFile(filepath.Join("testdata", "s3", "calls_test.go"))
	require.NoError(t, err)
	runGenerated(t, files, "calls_test.go", calls)
}
