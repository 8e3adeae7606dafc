package childproc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	exit := errors.New("exit status 2")
	tests := []struct {
		stderr  string
		waitErr error
		cause   Cause
		msg     string
	}{
		{"runtime: goroutine stack exceeds 67108864-byte limit\nruntime: sp=0xc0200e0390 stack=[0xc0200e0000, 0xc0400e0000]\nfatal error: stack overflow\n\nruntime stack:\n...", exit,
			StackOverflow, "fatal error: stack overflow (runtime: goroutine stack exceeds 67108864-byte limit)"},
		{"runtime: out of memory: cannot allocate 1048576-byte block (832045056 in use)\nfatal error: out of memory\n\ngoroutine 1 [running]:\n", exit,
			OutOfMemory, "fatal error: out of memory"},
		{"fatal error: all goroutines are asleep - deadlock!\n", exit, Crashed, "fatal error: all goroutines are asleep - deadlock!"},
		{"panic: boom\n\ngoroutine 1 [running]:\n", exit, Crashed, "panic: boom (exit status 2)"},
		{"some library noise\npanic: boom\n", exit, Crashed, "panic: boom (exit status 2)"},
		{"killed by a library\n", exit, Crashed, "killed by a library (exit status 2)"},
		{"", exit, Crashed, "exit status 2"},
		{"", nil, Crashed, "exited before finishing its work"},
		{strings.Repeat("x", 300), exit, Crashed, strings.Repeat("x", MaxMessage) + "…"},
	}
	for _, tt := range tests {
		d := Classify(tt.stderr, tt.waitErr)
		if d.Cause != tt.cause || d.Message != tt.msg {
			t.Errorf("Classify(%q, %v) = %+v, want %s %q", tt.stderr, tt.waitErr, d, tt.cause, tt.msg)
		}
	}
}

func TestHead(t *testing.T) {
	h := &Head{max: 5}
	for _, s := range []string{"abc", "def", "ghi"} {
		if n, err := h.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v; want %d, nil", s, n, err, len(s))
		}
	}
	if got := h.String(); got != "abcde" {
		t.Errorf("kept %q, want %q", got, "abcde")
	}
}

func TestLimitsString(t *testing.T) {
	if got := (Limits{Stack: 64 << 20}).String(); got != "" {
		t.Errorf("no memory limit: rlimit %q, want none", got)
	}
	l := Limits{Memory: 512 << 20, Stack: 64 << 20}
	want := ""
	if rlimitName != "" {
		want = rlimitName + "=832 MiB"
	}
	if got := l.String(); got != want {
		t.Errorf("%+v: rlimit %q, want %q", l, got, want)
	}
}

func TestMainDispatch(t *testing.T) {
	var got []string
	roles := map[string]Role{
		"ok":   func(arg string) error { got = append(got, arg); return nil },
		"fail": func(string) error { return errors.New("cannot") },
	}
	if status, child := Main(roles, os.Stderr); child || status != 0 {
		t.Fatalf("without %s: Main = %d, %v; want 0, false", Env, status, child)
	}
	tests := []struct {
		spec   string
		status int
		stderr string
	}{
		{"ok PROBE CODEC", 0, ""},
		{"ok", 0, ""},
		{"fail x", 2, "fail child: cannot\n"},
		{"nope", 2, `childproc: SERBENCH_CHILD="nope": unknown role "nope"` + "\n"},
	}
	for _, tt := range tests {
		t.Setenv(Env, tt.spec)
		var stderr bytes.Buffer
		status, child := Main(roles, &stderr)
		if !child || status != tt.status || stderr.String() != tt.stderr {
			t.Errorf("%s=%q: Main = %d, %v, stderr %q; want %d, true, %q", Env, tt.spec, status, child, stderr.String(), tt.status, tt.stderr)
		}
	}
	if want := []string{"PROBE CODEC", ""}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("roles got arguments %q, want %q", got, want)
	}
}

func TestCommand(t *testing.T) {
	cmd, err := Command(context.Background(), "/bin/true", "probe", "a b")
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Path != "/bin/true" || cmd.Env[len(cmd.Env)-1] != Env+"=probe a b" {
		t.Errorf("command %s with env ...%q, want /bin/true with %s=\"probe a b\"", cmd.Path, cmd.Env[len(cmd.Env)-1], Env)
	}
}
