package wire_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/wire"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
)

// newOf returns a new zero value of the type v points to.
func newOf(v any) any {
	switch v.(type) {
	case *scenario.SSEEvent:
		return new(scenario.SSEEvent)
	case *scenario.UserEvent:
		return new(scenario.UserEvent)
	case *scenario.WSMessage:
		return new(scenario.WSMessage)
	case *scenario.Annotation:
		return new(scenario.Annotation)
	case *scenario.UserProfile:
		return new(scenario.UserProfile)
	}
	panic(fmt.Sprintf("no seed type %T", v))
}

func TestRoundTripSeeds(t *testing.T) {
	copyMode, err := wire.DecOptions{CopyStrings: true}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scenario.Seeds() {
		for _, mode := range []struct {
			name string
			m    wire.DecMode
		}{{"shared", wire.DecMode{}}, {"copy", copyMode}} {
			t.Run(s.ID+"/"+mode.name, func(t *testing.T) {
				want := s.Value()
				data, err := wire.Marshal(want)
				if err != nil {
					t.Fatal(err)
				}
				if data[0] != wire.Version {
					t.Fatalf("first byte %#x, want version %#x", data[0], wire.Version)
				}
				got := newOf(want)
				if err := mode.m.Unmarshal(data, got); err != nil {
					t.Fatal(err)
				}
				if err := fidelity.Diff(want, got); err != nil {
					t.Fatal(err)
				}
				again, _ := wire.Marshal(got)
				if !bytes.Equal(again, data) {
					t.Fatalf("re-encoding differs:\n% x\n% x", data, again)
				}
			})
		}
	}
}

// TestMarshalDeterministic encodes each seed many times: maps must come out
// in the same (sorted) order every time.
func TestMarshalDeterministic(t *testing.T) {
	for _, s := range scenario.Seeds() {
		first, _ := wire.Marshal(s.Value())
		for range 50 {
			if b, _ := wire.Marshal(s.Value()); !bytes.Equal(b, first) {
				t.Fatalf("%s: encoding changed between calls", s.ID)
			}
		}
	}
}

func TestCodecs(t *testing.T) {
	for _, c := range []codec.Codec{wire.New(), wire.NewReuse()} {
		for _, s := range scenario.Seeds() {
			t.Run(c.Info().ID+"/"+s.ID, func(t *testing.T) {
				want := s.Value()
				b, err := c.Bind(want)
				if err != nil {
					t.Fatal(err)
				}
				data, err := b.Marshal(want)
				if err != nil {
					t.Fatal(err)
				}
				direct, _ := wire.Marshal(want)
				if !bytes.Equal(data, direct) {
					t.Fatal("Binding.Marshal differs from wire.Marshal")
				}
				app, err := b.(wire.Appender).AppendMarshal([]byte("xy"), want)
				if err != nil || !bytes.Equal(app, append([]byte("xy"), direct...)) {
					t.Fatalf("AppendMarshal: %v", err)
				}
				got, err := b.Unmarshal(data)
				if err != nil {
					t.Fatal(err)
				}
				if err := fidelity.Diff(want, got); err != nil {
					t.Fatal(err)
				}
				if _, err := b.Marshal(&struct{}{}); err == nil {
					t.Fatal("Marshal of a wrong type: no error")
				}
			})
		}
		if _, err := c.Bind(new(int)); !errors.Is(err, codec.ErrUnsupported) {
			t.Errorf("%s: Bind(*int) = %v, want ErrUnsupported", c.Info().ID, err)
		}
	}
}

func TestMarshalAllocs(t *testing.T) {
	for _, s := range scenario.Seeds() {
		v := s.Value()
		for _, c := range []codec.Codec{wire.New(), wire.NewReuse()} {
			b, _ := c.Bind(v)
			want := 1.0
			if c.Info().ID == wire.ReuseID {
				want = 0
			}
			if n := testing.AllocsPerRun(20, func() { b.Marshal(v) }); n != want {
				t.Errorf("%s %s: Marshal makes %v allocations, want %v", c.Info().ID, s.ID, n, want)
			}
		}
	}
}

func TestTimeFidelity(t *testing.T) {
	berlin := time.FixedZone("CEST", 2*3600)
	for _, tm := range []time.Time{
		{},
		time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 999999999, berlin),
		time.Date(1850, 1, 2, 3, 4, 5, 1, time.FixedZone("", -(3*3600+25*60+7))),
		time.Now(), // monotonic reading dropped
	} {
		d := wire.NewDecoder(wire.AppendTime(nil, tm), wire.DecMode{})
		got := d.Time()
		if err := d.Finish(); err != nil {
			t.Fatal(err)
		}
		_, wo := tm.Zone()
		_, go_ := got.Zone()
		if !got.Equal(tm) || wo != go_ {
			t.Errorf("time %v came back as %v", tm, got)
		}
	}
}

func TestNilAndEmptyCollections(t *testing.T) {
	v := &scenario.UserEvent{Tags: []string{}, Attributes: map[string]map[string]string{"a": {}, "b": nil}, Scores: nil, Flags: []bool{}}
	data, _ := wire.Marshal(v)
	got := new(scenario.UserEvent)
	if err := wire.Unmarshal(data, got); err != nil {
		t.Fatal(err)
	}
	if err := fidelity.Diff(v, got); err != nil {
		t.Fatal(err)
	}
}

func TestFloatBits(t *testing.T) {
	nan := math.Float32frombits(0x7fc00123)
	v := &scenario.Annotation{Labels: []scenario.Label{{Confidence: nan, Box: scenario.BBox{X: float32(math.Copysign(0, -1)), Y: float32(math.Inf(1))}}}}
	data, _ := wire.Marshal(v)
	got := new(scenario.Annotation)
	if err := wire.Unmarshal(data, got); err != nil {
		t.Fatal(err)
	}
	l := got.Labels[0]
	if math.Float32bits(l.Confidence) != 0x7fc00123 || math.Float32bits(l.Box.X) != 0x80000000 || !math.IsInf(float64(l.Box.Y), 1) {
		t.Fatalf("float bits changed: %+v", l)
	}
}

func TestDecOptions(t *testing.T) {
	for _, tc := range []struct {
		o       wire.DecOptions
		wantErr string
	}{
		{wire.DecOptions{}, ""},
		{wire.DecOptions{MaxDepth: 1, MaxCollectionLen: 1}, ""},
		{wire.DecOptions{MaxDepth: -1}, "wire: invalid MaxDepth -1 (range is [1, 10000]"},
		{wire.DecOptions{MaxDepth: 10001}, "wire: invalid MaxDepth 10001 (range is [1, 10000]"},
		{wire.DecOptions{MaxCollectionLen: -5}, "wire: invalid MaxCollectionLen -5 (range is [1, 2147483647]"},
	} {
		m, err := tc.o.DecMode()
		if tc.wantErr == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.o, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
			t.Errorf("%+v: error %v, want prefix %q", tc.o, err, tc.wantErr)
		}
		_ = m
	}
	got := wire.DecMode{}.Options()
	if got.MaxDepth != wire.DefaultMaxDepth || got.MaxCollectionLen != wire.DefaultMaxCollectionLen || got.CopyStrings {
		t.Errorf("zero DecMode options %+v, want defaults", got)
	}
}

// wsBytes builds a ws-message encoding by hand.
func wsBytes(uid, content string, ts int64) []byte {
	b := []byte{wire.Version}
	b = wire.AppendString(b, uid)
	b = wire.AppendString(b, content)
	return wire.AppendVarint(b, ts)
}

func TestDecodeErrors(t *testing.T) {
	ws := wsBytes("u", "hi", 5)
	sse := wire.AppendSSEEvent(nil, &scenario.SSEEvent{ID: "a", Meta: map[string]string{"k1": "v", "k2": "w"}})
	ann := wire.AppendAnnotation(nil, scenario.NewAnnotation())
	depth2, _ := wire.DecOptions{MaxDepth: 2}.DecMode()
	maxLen2, _ := wire.DecOptions{MaxCollectionLen: 2}.DecMode()
	bools := func(b byte) []byte {
		v := wire.AppendSSEEvent(nil, &scenario.SSEEvent{})
		v[4] = b // version, three empty strings, Replay
		return v
	}
	for _, tc := range []struct {
		name     string
		data     []byte
		into     any
		mode     wire.DecMode
		sentinel error
		msg      string // exact Error()
	}{
		{"empty", nil, new(scenario.WSMessage), wire.DecMode{}, wire.ErrTruncated,
			"wire: offset 0: empty input, want format version byte"},
		{"bad version", append([]byte{2}, ws[1:]...), new(scenario.WSMessage), wire.DecMode{}, wire.ErrVersion,
			"wire: offset 0: format version 2, want 1"},
		{"truncated string", ws[:4], new(scenario.WSMessage), wire.DecMode{}, wire.ErrLength,
			"wire: offset 3: string length 2 exceeds remaining 0 bytes"},
		{"truncated varint", append(wsBytes("u", "hi", 0)[:6:6], 0x80), new(scenario.WSMessage), wire.DecMode{}, wire.ErrTruncated,
			"wire: offset 6: varint runs past the end of the input (1 bytes remain)"},
		{"truncated float", ann[:78], new(scenario.Annotation), wire.DecMode{}, wire.ErrTruncated,
			"wire: offset 76: 4-byte value exceeds remaining 2 bytes"},
		{"huge string length", []byte{1, 0x80, 0xa4, 0xe8, 0x03, 'a', 'b'}, new(scenario.WSMessage), wire.DecMode{}, wire.ErrLength,
			"wire: offset 1: string length 8000000 exceeds remaining 2 bytes"},
		{"huge collection", []byte{1, 0, 0xff, 0xff, 0x03, 0}, new(scenario.Annotation), wire.DecMode{}, wire.ErrLength,
			"wire: offset 2: collection length 65534 (at least 21 bytes each) exceeds remaining 1 bytes"},
		{"MaxCollectionLen", sse, new(scenario.SSEEvent), maxLen2, nil, ""},
		{"MaxCollectionLen exceeded", wire.AppendSSEEvent(nil, &scenario.SSEEvent{Meta: map[string]string{"a": "", "b": "", "c": ""}}),
			new(scenario.SSEEvent), maxLen2, wire.ErrLimit,
			"wire: offset 5: collection length 3 exceeds MaxCollectionLen 2"},
		{"depth", ann, new(scenario.Annotation), depth2, wire.ErrLimit,
			"wire: offset 13: nesting depth 3 exceeds MaxDepth 2"},
		{"trailing bytes", append(append([]byte(nil), ws...), 0, 0), new(scenario.WSMessage), wire.DecMode{}, wire.ErrTrailing,
			"wire: offset 7: 2 trailing bytes after the value"},
		{"overlong varint", []byte{1, 0x81, 0x00}, new(scenario.WSMessage), wire.DecMode{}, wire.ErrVarint,
			"wire: offset 1: overlong varint (2 bytes, last byte 0x00)"},
		{"varint overflow", []byte{1, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, new(scenario.WSMessage), wire.DecMode{}, wire.ErrVarint,
			"wire: offset 3: varint overflows 64 bits"},
		{"bad bool", bools(7), new(scenario.SSEEvent), wire.DecMode{}, wire.ErrInvalid,
			"wire: offset 4: bool byte 0x07, want 0x00 or 0x01"},
		{"unsorted keys", bytes.Replace(sse, []byte("k1"), []byte("k3"), 1), new(scenario.SSEEvent), wire.DecMode{}, wire.ErrInvalid,
			`wire: offset 12: map key "k2" does not sort after the previous key "k3"`},
		{"repeated keys", bytes.Replace(sse, []byte("k1"), []byte("k2"), 1), new(scenario.SSEEvent), wire.DecMode{}, wire.ErrInvalid,
			`wire: offset 12: map key "k2" does not sort after the previous key "k2"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.mode.Unmarshal(tc.data, tc.into)
			if tc.sentinel == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var de *wire.DecodeError
			if !errors.As(err, &de) || !errors.Is(err, tc.sentinel) {
				t.Fatalf("error %v (%T), want a *DecodeError wrapping %v", err, err, tc.sentinel)
			}
			if err.Error() != tc.msg {
				t.Fatalf("error\n%s\nwant\n%s", err, tc.msg)
			}
		})
	}
}

// TestEveryTruncationFails checks that every proper prefix of every seed's
// encoding is rejected with a *DecodeError.
func TestEveryTruncationFails(t *testing.T) {
	for _, s := range scenario.Seeds() {
		data, _ := wire.Marshal(s.Value())
		for n := range len(data) {
			err := wire.Unmarshal(data[:n], newOf(s.Value()))
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("%s: prefix of %d bytes: error %v, want *DecodeError", s.ID, n, err)
			}
		}
	}
}

func TestTimeErrors(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		msg  string
	}{
		{wire.AppendVarint(wire.AppendUvarint(wire.AppendVarint(nil, 0), 1e9), 0),
			"wire: offset 1: nanoseconds 1000000000 out of range [0, 999999999]"},
		{wire.AppendVarint(wire.AppendUvarint(wire.AppendVarint(nil, 0), 0), 86400),
			"wire: offset 2: zone offset 86400 s out of range (-86400, 86400)"},
	} {
		d := wire.NewDecoder(tc.data, wire.DecMode{})
		d.Time()
		if err := d.Finish(); err == nil || err.Error() != tc.msg || !errors.Is(err, wire.ErrInvalid) {
			t.Errorf("error %v, want %s", err, tc.msg)
		}
	}
}

func TestIntRange(t *testing.T) {
	d := wire.NewDecoder(wire.AppendVarint(nil, math.MaxInt32+1), wire.DecMode{})
	d.Int32()
	if err := d.Finish(); err == nil || err.Error() != "wire: offset 0: value 2147483648 out of int32 range" {
		t.Errorf("error %v", err)
	}
}

// heapBytes returns the bytes f allocates on the heap, averaged over runs.
func heapBytes(runs int, f func()) float64 {
	f()
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&b)
	return float64(b.TotalAlloc-a.TotalAlloc) / float64(runs)
}

// TestHugeLengthNotAllocated decodes short inputs that declare huge lengths:
// they must fail without allocating anything near the declared size.
func TestHugeLengthNotAllocated(t *testing.T) {
	copyMode, _ := wire.DecOptions{CopyStrings: true}.DecMode()
	for _, tc := range []struct {
		name string
		data []byte
		into any
	}{
		{"string 2^62", append(wire.AppendUvarint([]byte{1}, 1<<62), "abc"...), new(scenario.WSMessage)},
		{"tags 2^31", append(wire.AppendUvarint(wire.AppendUserEvent(nil, &scenario.UserEvent{})[:1+1+1+1+1+3+0], 1<<31), 0, 0), new(scenario.UserEvent)},
		{"labels 10^6", append(wire.AppendUvarint([]byte{1, 0}, 1e6), 0), new(scenario.Annotation)},
		{"meta 10^6", append(wire.AppendUvarint([]byte{1, 0, 0, 0, 0}, 1e6), 0, 0), new(scenario.SSEEvent)},
	} {
		for _, m := range []wire.DecMode{{}, copyMode} {
			if err := m.Unmarshal(tc.data, tc.into); err == nil {
				t.Fatalf("%s: no error", tc.name)
			}
			if n := heapBytes(100, func() { m.Unmarshal(tc.data, tc.into) }); n > 512 {
				t.Errorf("%s: failing decode allocates %.0f bytes, want at most 512 (the error)", tc.name, n)
			}
		}
	}
}

// TestAllocationBound decodes valid inputs built to allocate as much as
// possible per input byte (many minimal elements) and checks the documented
// bound: at most 32 bytes per input byte plus 4 KiB.
func TestAllocationBound(t *testing.T) {
	tags := make([]string, 5000)
	flags := make([]bool, 5000)
	attrs := map[string]map[string]string{}
	meta := map[string]string{}
	for i := range 3000 {
		k := fmt.Sprint(i)
		meta[k] = ""
		attrs[k] = nil
	}
	var labels []scenario.Label
	for range 2000 {
		labels = append(labels, scenario.Label{})
	}
	var addrs []scenario.Address
	for range 2000 {
		addrs = append(addrs, scenario.Address{})
	}
	for _, v := range []any{
		&scenario.UserEvent{Tags: tags},
		&scenario.UserEvent{Flags: flags},
		&scenario.UserEvent{Attributes: attrs},
		&scenario.UserEvent{Items: make([]scenario.EventItem, 2000)},
		&scenario.SSEEvent{Meta: meta},
		&scenario.Annotation{Labels: labels},
		&scenario.UserProfile{Addresses: addrs},
	} {
		data, _ := wire.Marshal(v)
		into := newOf(v)
		n := heapBytes(20, func() {
			if err := wire.Unmarshal(data, into); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%T: %d input bytes, %.0f heap bytes (%.1f per input byte)", v, len(data), n, n/float64(len(data)))
		if n > 32*float64(len(data))+4096 {
			t.Errorf("%T: %d input bytes allocate %.0f bytes, over 32 per byte + 4 KiB", v, len(data), n)
		}
	}
}

func ExampleAppendWSMessage() {
	b := wire.AppendWSMessage(nil, &scenario.WSMessage{Uid: "u1", Content: "hi", Timestamp: -3})
	fmt.Printf("% x\n", b)
	var m scenario.WSMessage
	err := wire.Unmarshal(b, &m)
	fmt.Println(m, err)
	// Output:
	// 01 02 75 31 02 68 69 05
	// {u1 hi -3} <nil>
}

func TestMarshalExactAllocation(t *testing.T) {
	big := &scenario.UserEvent{Tags: make([]string, 1000)}
	for _, v := range []any{scenario.NewSSEEvent(), scenario.NewUserEvent(), big} {
		if n := testing.AllocsPerRun(10, func() { wire.Marshal(v) }); n != 1 {
			t.Errorf("%T: wire.Marshal makes %v allocations, want 1", v, n)
		}
		b, _ := wire.Marshal(v)
		if len(b) != cap(b) {
			t.Errorf("%T: len %d, cap %d", v, len(b), cap(b))
		}
	}
	if _, err := wire.Marshal(new(int)); err == nil {
		t.Error("Marshal(*int): no error")
	}
}

func ExampleDecodeError() {
	// A ws-message whose Uid claims 4000000 bytes but only 2 follow.
	data := append(wire.AppendUvarint([]byte{wire.Version}, 4000000), "hi"...)
	var m scenario.WSMessage
	err := wire.Unmarshal(data, &m)
	fmt.Println(err)
	fmt.Println(errors.Is(err, wire.ErrLength))
	// Output:
	// wire: offset 1: string length 4000000 exceeds remaining 2 bytes
	// true
}

// wire/reuse decodes into storage its Binding owns: after the first message
// of a shape, unmarshalling allocates nothing, on every seed.
func TestReuseUnmarshalAllocs(t *testing.T) {
	for _, s := range scenario.Seeds() {
		v := s.Value()
		b, _ := wire.NewReuse().Bind(v)
		data, _ := wire.Marshal(v)
		if _, err := b.Unmarshal(data); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(20, func() { b.Unmarshal(data) }); n != 0 {
			t.Errorf("%s: Unmarshal makes %v allocations, want 0", s.ID, n)
		}
	}
}

// Decoding a sequence of differently shaped messages into one wire/reuse
// Binding gives each message's value: nothing of the previous one (longer
// slices, more map entries, other inner maps, another zone) leaks through.
func TestReuseSequence(t *testing.T) {
	ue := func(mod func(*scenario.UserEvent)) any {
		v := scenario.NewUserEvent()
		mod(v)
		return v
	}
	up := func(mod func(*scenario.UserProfile)) any {
		v := scenario.NewUserProfile()
		mod(v)
		return v
	}
	seqs := map[string][]any{
		"user-event": {
			scenario.NewUserEvent(),
			ue(func(v *scenario.UserEvent) {
				v.Tags, v.Items, v.Scores, v.Flags = v.Tags[:1], v.Items[:1], []float64{}, nil
				v.Attributes = map[string]map[string]string{"only": nil, "z": {}}
				v.OccurredAt = v.OccurredAt.In(time.FixedZone("X", -3600))
			}),
			ue(func(v *scenario.UserEvent) {
				v.Tags = append(v.Tags, "more", "tags", "than", "before")
				v.Items = append(v.Items, v.Items...)
				v.Attributes = nil
				v.OccurredAt = v.OccurredAt.UTC()
			}),
			scenario.NewUserEvent(),
		},
		"user-profile": {
			scenario.NewUserProfile(),
			up(func(v *scenario.UserProfile) { v.Addresses, v.Metadata = nil, map[string]string{} }),
			up(func(v *scenario.UserProfile) { v.Metadata = map[string]string{"a": "1"} }),
			scenario.NewUserProfile(),
		},
		"sse-event": {
			scenario.NewSSEEvent(),
			&scenario.SSEEvent{ID: "x", Meta: map[string]string{"a": "b", "c": "d"}},
			&scenario.SSEEvent{},
			scenario.NewSSEEvent(),
		},
	}
	for name, seq := range seqs {
		b, _ := wire.NewReuse().Bind(seq[0])
		for i, want := range seq {
			data, err := wire.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.Unmarshal(data)
			if err != nil {
				t.Fatalf("%s #%d: %v", name, i, err)
			}
			if err := fidelity.Diff(want, got); err != nil {
				t.Errorf("%s #%d: %v", name, i, err)
			}
		}
	}
}

// wire/lazy's Unmarshal returns a view that its FromNative copies back to
// the seed value; it allocates nothing, and a bad message is the same
// *DecodeError as Unmarshal's.
func TestLazy(t *testing.T) {
	for _, s := range scenario.Seeds() {
		t.Run(s.ID, func(t *testing.T) {
			want := s.Value()
			b, err := wire.NewLazy().Bind(want)
			if err != nil {
				t.Fatal(err)
			}
			conv := b.(codec.Converter)
			in, err := conv.ToNative(want)
			if err != nil || in != want {
				t.Fatalf("ToNative = %v, %v; want the value itself", in, err)
			}
			data, err := b.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			view, err := b.Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			got, err := conv.FromNative(view)
			if err != nil {
				t.Fatal(err)
			}
			if err := fidelity.Diff(want, got); err != nil {
				t.Fatal(err)
			}
			if again, _ := wire.Marshal(got); !bytes.Equal(again, data) {
				t.Fatal("re-encoding the copied view differs")
			}
			if n := testing.AllocsPerRun(20, func() { b.Unmarshal(data) }); n != 0 {
				t.Errorf("Unmarshal makes %v allocations, want 0", n)
			}
			bad := append(append([]byte(nil), data...), 0)
			_, lerr := b.Unmarshal(bad)
			uerr := wire.Unmarshal(bad, newOf(want))
			var de *wire.DecodeError
			if !errors.As(lerr, &de) || lerr.Error() != uerr.Error() {
				t.Errorf("trailing byte: %v, Unmarshal says %v", lerr, uerr)
			}
			if _, err := conv.FromNative(new(int)); err == nil {
				t.Error("FromNative(*int): no error")
			}
		})
	}
}

// The accessors read the fields in place: strings are views of the input
// (no copy), collections iterate in order.
func TestViewAccessors(t *testing.T) {
	ue := scenario.NewUserEvent()
	data, _ := wire.Marshal(ue)
	var v wire.UserEventView
	if err := (wire.DecMode{}).ViewUserEvent(data, &v); err != nil {
		t.Fatal(err)
	}
	if v.EventID() != ue.EventID || v.SessionID() != ue.SessionID || !v.OccurredAt().Time().Equal(ue.OccurredAt) ||
		v.Source().Locale != ue.Source.Locale || v.Scores().Len() != len(ue.Scores) || v.Scores().At(1) != ue.Scores[1] ||
		v.Flags().At(0) != ue.Flags[0] || v.Attributes().Len() != len(ue.Attributes) {
		t.Errorf("view %+v differs from %+v", v, ue)
	}
	var tags []string
	for it := v.Tags().Iter(); it.Next(); {
		tags = append(tags, it.Value())
	}
	if fmt.Sprint(tags) != fmt.Sprint(ue.Tags) {
		t.Errorf("tags %q, want %q", tags, ue.Tags)
	}
	i := 0
	for it := v.Items().Iter(); it.Next(); i++ {
		if x := it.Value(); x.SKU != ue.Items[i].SKU || x.Price != ue.Items[i].Price || x.Quantity != ue.Items[i].Quantity {
			t.Errorf("item %d: %+v, want %+v", i, x, ue.Items[i])
		}
	}
	walk := func() {
		for it := v.Attributes().Iter(); it.Next(); {
			for in := it.Value().Value.Iter(); in.Next(); {
				_ = in.Value()
			}
		}
		for it := v.Items().Iter(); it.Next(); {
			_ = it.Value()
		}
	}
	if n := testing.AllocsPerRun(20, walk); n != 0 {
		t.Errorf("iterating makes %v allocations, want 0", n)
	}
	// A string of the view is the input's bytes: changing them shows through.
	sid := v.SessionID()
	at := bytes.Index(data, []byte(ue.SessionID))
	data[at] ^= 0x20
	if sid == ue.SessionID {
		t.Error("SessionID is a copy, not a view of the input")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Scores().At(len) did not panic")
			}
		}()
		v.Scores().At(v.Scores().Len())
	}()
}

// A Binding remembers the sorted keys of the maps it last encoded: a
// sequence of messages whose maps change (other keys, same count; more or
// fewer; nil; inner maps changing under a same outer key set) must still
// encode exactly as wire.Marshal does.
func TestMarshalKeyCache(t *testing.T) {
	ue := func(attrs map[string]map[string]string) *scenario.UserEvent {
		v := scenario.NewUserEvent()
		v.Attributes = attrs
		return v
	}
	up := func(meta map[string]string) *scenario.UserProfile {
		v := scenario.NewUserProfile()
		v.Metadata = meta
		return v
	}
	seqs := [][]any{
		{
			scenario.NewUserEvent(), scenario.NewUserEvent(),
			ue(map[string]map[string]string{"a": {"x": "1", "y": "2"}, "b": {"z": "3"}}),
			ue(map[string]map[string]string{"a": {"x": "1", "w": "2"}, "b": {"z": "3"}}),
			ue(map[string]map[string]string{"a": {"x": "1", "w": "2"}, "c": {"z": "3"}}),
			ue(map[string]map[string]string{"a": nil, "c": {}}),
			ue(map[string]map[string]string{"a": {"q": "1"}, "c": {"z": "3"}}),
			ue(nil), scenario.NewUserEvent(),
		},
		{
			scenario.NewUserProfile(), scenario.NewUserProfile(),
			up(map[string]string{"plan": "pro", "referrer": "x", "tone": "dark"}),
			up(map[string]string{"plan": "pro", "referrer": "x"}),
			up(map[string]string{"plan": "pro", "referrer": "x", "a": "b", "c": "d"}),
			up(map[string]string{"one": "1"}), up(map[string]string{"two": "2"}), up(nil), up(map[string]string{}),
		},
		{
			scenario.NewSSEEvent(), &scenario.SSEEvent{Meta: map[string]string{"other": "key"}},
			&scenario.SSEEvent{Meta: map[string]string{"b": "1", "a": "2"}}, scenario.NewSSEEvent(),
		},
	}
	for _, seq := range seqs {
		for _, c := range []codec.Codec{wire.New(), wire.NewReuse()} {
			b, _ := c.Bind(seq[0])
			for i, v := range seq {
				got, err := b.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := wire.Marshal(v)
				if !bytes.Equal(got, want) {
					t.Errorf("%s %T #%d: Marshal\n% x\nwant\n% x", c.Info().ID, v, i, got, want)
				}
			}
		}
	}
}

// "wire" copies each message into a chunk its Binding shares between
// messages: values decoded one after the other never change, and a
// message too large for a chunk gets a copy of its own.
func TestWireValuesIndependent(t *testing.T) {
	b, _ := wire.New().Bind(new(scenario.WSMessage))
	var got []any
	var want []*scenario.WSMessage
	for i := range 200 {
		m := &scenario.WSMessage{Uid: fmt.Sprint("u", i), Content: strings.Repeat("c", i*11), Timestamp: int64(i)}
		data, _ := wire.Marshal(m)
		v, err := b.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)-2] ^= 0xff // the caller may reuse its buffer
		got, want = append(got, v), append(want, m)
	}
	for i := range got {
		if err := fidelity.Diff(want[i], got[i]); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
}
