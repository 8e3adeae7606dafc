//go:build !linux

package site

// exchange reports false: only Linux swaps two folders in one rename.
func exchange(a, b string) (bool, error) { return false, nil }
