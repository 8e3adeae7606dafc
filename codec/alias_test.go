package codec_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/internal/codectest"
	"github.com/serbench/serbench/scenario"
)

func TestAliasesInput(t *testing.T) {
	want := scenario.NewWSMessage()
	same := func(out any) error { return fidelity.Diff(want, out) }
	for _, tc := range []struct {
		codec codec.Codec
		want  bool
	}{
		{codectest.Alias(true), true},
		{codectest.Alias(false), false},
	} {
		id := tc.codec.Info().ID
		b, err := tc.codec.Bind(want)
		if err != nil {
			t.Fatal(err)
		}
		data, err := b.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		kept := string(data)
		got, err := codec.AliasesInput(b, data, same)
		if err != nil || got != tc.want {
			t.Errorf("%s: AliasesInput = %v, %v; want %v", id, got, err, tc.want)
		}
		if string(data) != kept {
			t.Errorf("%s: the probe changed the caller's bytes", id)
		}
	}
}

// The probe reports that it could not run, never a finding, when the
// value differs before the overwrite or Unmarshal fails; a panic after
// the overwrite counts as aliasing.
func TestAliasesInputErrors(t *testing.T) {
	want := scenario.NewWSMessage()
	b, _ := codectest.Alias(false).Bind(want)
	data, _ := b.Marshal(want)
	if _, err := codec.AliasesInput(b, data, func(any) error { return errors.New("differs") }); !errors.Is(err, codec.ErrAliasUnchecked) {
		t.Errorf("differing value: err %v, want ErrAliasUnchecked", err)
	}
	if _, err := codec.AliasesInput(b, []byte("{"), func(any) error { return nil }); !errors.Is(err, codec.ErrAliasUnchecked) {
		t.Errorf("bad input: err %v, want ErrAliasUnchecked", err)
	}
	calls := 0
	got, err := codec.AliasesInput(b, data, func(any) error {
		if calls++; calls == 2 {
			panic("read past the end")
		}
		return nil
	})
	if err != nil || !got {
		t.Errorf("panic after the overwrite: %v, %v; want true", got, err)
	}
}

func TestFoldAliases(t *testing.T) {
	yes, no := new(true), new(false)
	for _, tc := range []struct {
		in   []*bool
		want string
	}{
		{nil, "nil"},
		{[]*bool{nil, nil}, "nil"},
		{[]*bool{nil, no}, "false"},
		{[]*bool{no, yes, nil}, "true"},
	} {
		got := "nil"
		if f := codec.FoldAliases(tc.in); f != nil {
			got = fmt.Sprint(*f)
		}
		if got != tc.want {
			t.Errorf("FoldAliases(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
