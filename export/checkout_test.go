package export

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// SetCodecs puts encoding/json first, checks a given checkout and makes
// it absolute; library codecs need no checkout.
func TestSetCodecs(t *testing.T) {
	ctx := context.Background()
	var m Module
	warning, err := m.SetCodecs(ctx, []string{"go-json", "encoding/json"}, true, "")
	if err != nil || warning != "" {
		t.Fatalf("library codecs: warning %q, err %v", warning, err)
	}
	if want := []string{"encoding/json", "go-json"}; !slices.Equal(m.Codecs, want) || m.Serbench != "" {
		t.Errorf("codecs %q, serbench %q; want %q and none", m.Codecs, m.Serbench, want)
	}
	dir := t.TempDir()
	if _, err := m.SetCodecs(ctx, []string{"protobuf"}, true, dir); err == nil || !strings.Contains(err.Error(), "no serbench checkout") {
		t.Errorf("a folder without go.mod: err %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := m.SetCodecs(ctx, []string{"protobuf"}, true, dir); err == nil || !strings.Contains(err.Error(), `declares module "example.com/other"`) {
		t.Errorf("another module: err %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+SerbenchModule+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := m.SetCodecs(ctx, []string{"protobuf"}, true, dir); err != nil || m.Serbench != dir {
		t.Errorf("a checkout: serbench %q, err %v", m.Serbench, err)
	}
}
