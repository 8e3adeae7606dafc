package export

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"

	"golang.org/x/mod/modfile"
)

// BuildModules maps every module linked into this binary to its version:
// the exported go.mod requires them all, so `go mod tidy` keeps the
// libraries (and their dependencies) at the versions serbench measured.
func BuildModules() map[string]string {
	mods := map[string]string{}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return mods
	}
	for _, d := range bi.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		if d.Version != "" && d.Version != "(devel)" && !strings.HasPrefix(d.Path, "github.com/serbench/serbench") {
			mods[d.Path] = d.Version
		}
	}
	return mods
}

// Checkout returns the root of the serbench module that holds the
// current folder: the folder of `go env GOMOD`, when its module line names
// serbench.
func Checkout(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("the current folder is in no Go module, so no serbench checkout to import")
	}
	if err := IsCheckout(gomod); err != nil {
		return "", fmt.Errorf("the current folder's module: %w", err)
	}
	return filepath.Dir(gomod), nil
}

// IsCheckout returns an error unless the go.mod file gomod declares
// serbench's module.
func IsCheckout(gomod string) error {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return fmt.Errorf("no serbench checkout: %w", err)
	}
	if p := modfile.ModulePath(data); p != SerbenchModule {
		return fmt.Errorf("%s declares module %q, not %s", gomod, p, SerbenchModule)
	}
	return nil
}
