package golden

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/generator"
)

// sharedSpecs is where the project keeps unmodified copies of real specs.
const sharedSpecs = "../../shared/specs"

// TestSharedSpecsBuild generates a client for every real spec in
// ../shared/specs (DynamoDB, SQS, Kinesis, Twilio, Box) into a temporary
// directory inside the module and builds and vets it. It logs per spec the
// generation time, generated lines and warning count.
func TestSharedSpecsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds five generated clients")
	}
	for _, tc := range []struct{ file, pkg string }{
		{"aws-dynamodb-2012-08-10.openapi.yaml", "dynamodb"},
		{"aws-sqs-2012-11-05.openapi.yaml", "sqs"},
		{"aws-kinesis-2013-12-02.openapi.yaml", "kinesis"},
		{"twilio_api_v2010.json", "twilio"},
		{"box_openapi.json", "box"},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			spec := filepath.Join(sharedSpecs, tc.file)
			if _, err := os.Stat(spec); err != nil {
				t.Skipf("%s not available: %v", spec, err)
			}
			start := time.Now()
			svc, diags, err := generator.LoadService(spec, nil)
			require.NoError(t, err)
			files, err := generator.Generate(svc, tc.pkg)
			require.NoError(t, err)
			elapsed := time.Since(start)
			dir, err := os.MkdirTemp(".", ".tmp-build-")
			require.NoError(t, err)
			t.Cleanup(func() { _ = os.RemoveAll(dir) })
			lines := 0
			for _, f := range files {
				lines += bytes.Count(f.Content, []byte("\n"))
				require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), f.Content, 0o644))
			}
			out, err := exec.Command("go", "vet", "./"+dir+"/").CombinedOutput()
			require.NoError(t, err, "go vet %s (%s): %s", dir, tc.file, out)
			t.Logf("%s: generated in %v, %d lines, %d warnings; builds and vets", tc.file, elapsed.Round(time.Millisecond), lines, len(diags))
		})
	}
}
