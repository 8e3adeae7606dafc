package wire_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/wire"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite the seed corpus in testdata/fuzz")

// fuzzDecode is the body of every fuzz target: decoding must not panic and
// must fail with a *DecodeError or succeed; on success the format being
// canonical, re-encoding must reproduce data exactly, and decoding that
// again (in both string modes) must give an equal value. Allocation is
// bounded by construction (every length is checked against the remaining
// input before allocating; see the package doc), which TestAllocationBound
// and TestHugeLengthNotAllocated measure.
//
// The codecs' Bindings must agree with DecMode's Unmarshal after decoding a
// seed value ("wire" packing both into one string chunk, "wire/reuse"
// decoding into the storage the seed left, "wire/lazy"), each failing with
// the same error or giving an equal value; and their Marshal, after a seed
// value, must give data back.
func fuzzDecode[T any](t *testing.T, data []byte, seed *T, unmarshal func(wire.DecMode, []byte, *T) error, appendT func([]byte, *T) []byte) {
	copyMode, _ := wire.DecOptions{CopyStrings: true}.DecMode()
	v := new(T)
	err := unmarshal(wire.DecMode{}, data, v)
	for _, c := range []codec.Codec{wire.New(), wire.NewReuse(), wire.NewLazy()} {
		b, berr := c.Bind(seed)
		if berr != nil {
			t.Fatal(berr)
		}
		if _, berr := b.Unmarshal(appendT(nil, seed)); berr != nil {
			t.Fatalf("%s: seed: %v", c.Info().ID, berr)
		}
		got, berr := b.Unmarshal(data)
		if (berr == nil) != (err == nil) || (err != nil && berr.Error() != err.Error()) {
			t.Fatalf("%s disagrees with DecMode: %v vs %v", c.Info().ID, berr, err)
		}
		if err != nil {
			continue
		}
		if conv, ok := b.(codec.Converter); ok {
			if got, berr = conv.FromNative(got); berr != nil {
				t.Fatalf("%s: FromNative: %v", c.Info().ID, berr)
			}
		}
		if d := fidelity.Diff(v, got); d != nil {
			t.Fatalf("%s: %v", c.Info().ID, d)
		}
		// Marshal after the seed: the Binding's map key cache holds the
		// seed's keys, and must still give data back.
		if _, berr := b.Marshal(seed); berr != nil {
			t.Fatal(berr)
		}
		if enc, berr := b.Marshal(v); berr != nil || !bytes.Equal(enc, data) {
			t.Fatalf("%s: Marshal after the seed: %v\nin  % x\nout % x", c.Info().ID, berr, data, enc)
		}
	}
	if err != nil {
		var de *wire.DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("error %v is %T, want *wire.DecodeError", err, err)
		}
		if de.Offset < 0 || de.Offset > len(data) {
			t.Fatalf("error offset %d outside input of %d bytes", de.Offset, len(data))
		}
		if err2 := unmarshal(copyMode, data, new(T)); err2 == nil || err2.Error() != err.Error() {
			t.Fatalf("string modes disagree: %v vs %v", err, err2)
		}
		return
	}
	enc := appendT(nil, v)
	if !bytes.Equal(enc, data) {
		t.Fatalf("re-encoding differs:\nin  % x\nout % x", data, enc)
	}
	for _, m := range []wire.DecMode{{}, copyMode} {
		w := new(T)
		if err := unmarshal(m, enc, w); err != nil {
			t.Fatalf("decoding the re-encoding: %v", err)
		}
		if err := fidelity.Diff(v, w); err != nil {
			t.Fatal(err)
		}
	}
}

// addSeeds adds the valid encoding of seed and some damaged copies to f, and
// with -update-corpus writes them to testdata/fuzz/<name>/ too.
func addSeeds(f *testing.F, name string, valid []byte) {
	seeds := map[string][]byte{
		"valid":          valid,
		"truncated-half": valid[:len(valid)/2],
		"truncated-last": valid[:len(valid)-1],
		"version-only":   valid[:1],
		"trailing":       append(append([]byte(nil), valid...), 0),
		"bad-version":    append([]byte{2}, valid[1:]...),
	}
	for _, k := range []string{"valid", "truncated-half", "truncated-last", "version-only", "trailing", "bad-version"} {
		f.Add(seeds[k])
		if *updateCorpus {
			dir := filepath.Join("testdata", "fuzz", name)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				f.Fatal(err)
			}
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n", strconv.Quote(string(seeds[k])))
			if err := os.WriteFile(filepath.Join(dir, k), []byte(body), 0o644); err != nil {
				f.Fatal(err)
			}
		}
	}
}

func FuzzSSEEvent(f *testing.F) {
	addSeeds(f, "FuzzSSEEvent", wire.AppendSSEEvent(nil, scenario.NewSSEEvent()))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, data, scenario.NewSSEEvent(), wire.DecMode.UnmarshalSSEEvent, wire.AppendSSEEvent)
	})
}

func FuzzUserEvent(f *testing.F) {
	addSeeds(f, "FuzzUserEvent", wire.AppendUserEvent(nil, scenario.NewUserEvent()))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, data, scenario.NewUserEvent(), wire.DecMode.UnmarshalUserEvent, wire.AppendUserEvent)
	})
}

func FuzzWSMessage(f *testing.F) {
	addSeeds(f, "FuzzWSMessage", wire.AppendWSMessage(nil, scenario.NewWSMessage()))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, data, scenario.NewWSMessage(), wire.DecMode.UnmarshalWSMessage, wire.AppendWSMessage)
	})
}

func FuzzAnnotation(f *testing.F) {
	addSeeds(f, "FuzzAnnotation", wire.AppendAnnotation(nil, scenario.NewAnnotation()))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, data, scenario.NewAnnotation(), wire.DecMode.UnmarshalAnnotation, wire.AppendAnnotation)
	})
}

func FuzzUserProfile(f *testing.F) {
	addSeeds(f, "FuzzUserProfile", wire.AppendUserProfile(nil, scenario.NewUserProfile()))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, data, scenario.NewUserProfile(), wire.DecMode.UnmarshalUserProfile, wire.AppendUserProfile)
	})
}
