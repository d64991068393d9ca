package generator

import (
	"os"
	"path/filepath"
	"testing"
)

func TestScratch(t *testing.T) {
	svc, _, err := LoadService("../specs/aws-dynamodb-2012-08-10.openapi.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(svc, "dynamodb")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll("/tmp/scratch/dynamodb", 0o755)
	for _, f := range files {
		os.WriteFile(filepath.Join("/tmp/scratch/dynamodb", f.Name), f.Content, 0o644)
	}
}
