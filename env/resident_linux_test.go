package env

import (
	"os"
	"strings"
	"testing"
)

func TestResidentBytes(t *testing.T) {
	n, err := ResidentBytes(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if n < 1<<20 {
		t.Errorf("ResidentBytes(self) = %d, want at least 1 MiB for a running Go test", n)
	}
	if _, err := ResidentBytes(-1); err == nil || !strings.HasPrefix(err.Error(), "env: ") {
		t.Errorf("ResidentBytes(-1): error %v, want one starting env: ", err)
	}
}
