//go:build !((amd64 && go1.17 && !go1.28) || (arm64 && go1.20 && !go1.28))

package sonic

// jit mirrors the build constraint of sonic v1.15's compat.go.
const jit = false
