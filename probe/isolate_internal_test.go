package probe

import (
	"errors"
	"testing"
)

func TestCrashReason(t *testing.T) {
	exit := errors.New("exit status 2")
	tests := []struct{ stderr, want string }{
		{"runtime: goroutine stack exceeds 67108864-byte limit\nruntime: sp=0xc0200e0390 stack=[0xc0200e0000, 0xc0400e0000]\nfatal error: stack overflow\n\nruntime stack:\n...",
			"fatal error: stack overflow (runtime: goroutine stack exceeds 67108864-byte limit)"},
		{"fatal error: all goroutines are asleep - deadlock!\n", "fatal error: all goroutines are asleep - deadlock!"},
		{"panic: boom\n\ngoroutine 1 [running]:\n", "panic: boom (exit status 2)"},
		{"", "exit status 2"},
	}
	for _, tt := range tests {
		if got := crashReason(tt.stderr, exit); got != tt.want {
			t.Errorf("crashReason(%q) = %q, want %q", tt.stderr, got, tt.want)
		}
	}
}
