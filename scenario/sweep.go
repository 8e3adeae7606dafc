package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The size sweep (docs/reference.md, "Size sweep") scales one realistic
// payload to a list of target sizes, so that a run shows how each codec's
// cost per byte changes from small to large messages.
//
// The payload is a user-event (NewUserEvent) whose Items list, the order
// lines of a checkout, is regenerated with as many lines as it takes for
// its encoding/json output to come closest to the target. Growing a list
// inside an existing seed type, rather than inventing a new type, lets every
// codec that has a schema for user-event (protobuf, FlatBuffers, msgp, wire,
// ...) take every point of the sweep.

// SweepFamily is the payload the sweep scales; sweep scenario IDs are
// "sweep/" + SweepFamily + "@" + SizeLabel(target).
const SweepFamily = "user-event"

// Sweep size limits, in bytes of encoding/json output.
const (
	// MinSweepBytes is the smallest target: a user-event with one order
	// line is about 870 bytes of JSON, so smaller targets cannot be hit.
	MinSweepBytes = 1 << 10
	// MaxSweepBytes is the largest target (about 650,000 order lines).
	MaxSweepBytes = 64 << 20
)

// DefaultSweepSizes are the targets of `-sizes default`: 1 KiB to 1 MiB
// in steps of 4x, the range of the published JSON library comparisons.
var DefaultSweepSizes = []int64{1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20}

// SweepPoint describes one point of the size sweep.
type SweepPoint struct {
	// Family is the payload scaled (SweepFamily).
	Family string `json:"family"`
	// TargetBytes is the requested encoding/json size, in bytes.
	TargetBytes int64 `json:"target_bytes"`
	// JSONBytes is the actual encoding/json size of the value, in bytes:
	// within half an order line (about 50 bytes) of TargetBytes.
	JSONBytes int64 `json:"json_bytes"`
	// Elements is the number of order lines (UserEvent.Items) it holds.
	Elements int `json:"elements"`
}

// SizeLabel writes n bytes as the sweep IDs do: "1MiB" when n is a
// multiple of 1 MiB, "64KiB" for a multiple of 1 KiB, "1500B" otherwise.
func SizeLabel(n int64) string {
	switch {
	case n > 0 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	case n > 0 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "KiB"
	}
	return strconv.FormatInt(n, 10) + "B"
}

// ParseSizes reads a -sizes list: "default" (DefaultSweepSizes) or
// comma-separated sizes, each a whole number followed by B, KiB, MiB
// (powers of 1024), KB or MB (powers of 1000), or by nothing for bytes:
// "1KiB,64KiB,1MiB". Sizes come back in the order given; a size outside
// [MinSweepBytes, MaxSweepBytes], a repeated size or an unknown unit is an
// error naming it.
func ParseSizes(s string) ([]int64, error) {
	if strings.TrimSpace(s) == "default" {
		return append([]int64(nil), DefaultSweepSizes...), nil
	}
	var out []int64
	seen := map[int64]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		n, err := parseSize(f)
		if err != nil {
			return nil, err
		}
		if n < MinSweepBytes || n > MaxSweepBytes {
			return nil, fmt.Errorf("scenario: size %q out of range (range is [%s, %s])", f, SizeLabel(MinSweepBytes), SizeLabel(MaxSweepBytes))
		}
		if seen[n] {
			return nil, fmt.Errorf("scenario: size %q given twice", f)
		}
		seen[n] = true
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("scenario: no size in %q (want e.g. 1KiB,64KiB,1MiB or default)", s)
	}
	return out, nil
}

var sizeUnits = []struct {
	suffix string
	mult   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"B", 1}, {"", 1}}

func parseSize(f string) (int64, error) {
	n, err := ParseSize(f)
	if err != nil && !errors.Is(err, errSizeTooLarge) {
		return 0, err
	}
	if err != nil || n > MaxSweepBytes {
		return 0, fmt.Errorf("scenario: size %q out of range (range is [%s, %s])", f, SizeLabel(MinSweepBytes), SizeLabel(MaxSweepBytes))
	}
	return n, nil
}

// errSizeTooLarge is wrapped by ParseSize for a size above math.MaxInt64 bytes.
var errSizeTooLarge = errors.New("too large")

// ParseSize reads one size in bytes: a whole number followed by B, KiB,
// MiB, GiB (powers of 1024), KB, MB, GB (powers of 1000), or by nothing for
// bytes: "64MiB", "1500", "0". A negative number, an unknown unit or a size
// above math.MaxInt64 bytes is an error naming the text.
func ParseSize(f string) (int64, error) {
	for _, u := range sizeUnits {
		num, ok := strings.CutSuffix(f, u.suffix)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n < 0 {
			break
		}
		if n > math.MaxInt64/u.mult {
			return 0, fmt.Errorf("scenario: size %q %w", f, errSizeTooLarge)
		}
		return n * u.mult, nil
	}
	return 0, fmt.Errorf("scenario: invalid size %q (want a whole number with B, KiB, MiB, GiB, KB, MB or GB, e.g. 64KiB)", f)
}

// Sweep returns one scenario per target size, in the order given, with IDs
// "sweep/user-event@<SizeLabel(target)>" and Scenario.Sweep set. The
// values are the same on every run and every machine: the order lines come
// from a fixed-seed generator, and the n-line event is a prefix of the
// (n+1)-line one. A target outside [MinSweepBytes, MaxSweepBytes] is an
// error.
func Sweep(targets []int64) ([]Scenario, error) {
	var out []Scenario
	for _, t := range targets {
		v, p, err := SweepValue(t)
		if err != nil {
			return nil, err
		}
		out = append(out, Scenario{
			ID:   "sweep/" + SweepFamily + "@" + SizeLabel(t),
			Type: fmt.Sprintf("%T", v),
			Doc: fmt.Sprintf("a user-event with %d order lines: %d bytes as encoding/json, for a target of %s (size sweep)",
				p.Elements, p.JSONBytes, SizeLabel(t)),
			Value: func() any { return v },
			New:   NewOf[UserEvent],
			Sweep: &p,
		})
	}
	return out, nil
}

// SweepValue returns the user-event of the sweep point whose encoding/json
// size comes closest to target bytes, and its description.
func SweepValue(target int64) (*UserEvent, SweepPoint, error) {
	if target < MinSweepBytes || target > MaxSweepBytes {
		return nil, SweepPoint{}, fmt.Errorf("scenario: sweep target %d bytes out of range (range is [%d, %d])", target, MinSweepBytes, MaxSweepBytes)
	}
	e := NewUserEvent()
	e.Items = []EventItem{}
	b, err := json.Marshal(e)
	if err != nil {
		return nil, SweepPoint{}, fmt.Errorf("scenario: sweep: %w", err)
	}
	// With n ≥ 1 lines the JSON is the empty-list event plus each line's
	// JSON plus n-1 commas; add lines while that brings it closer.
	size := int64(len(b))
	r := rand.New(rand.NewPCG(12, 1024))
	for {
		it := orderLine(r, len(e.Items))
		lb, err := json.Marshal(it)
		if err != nil {
			return nil, SweepPoint{}, fmt.Errorf("scenario: sweep: %w", err)
		}
		next := size + int64(len(lb))
		if len(e.Items) > 0 {
			next++ // the comma
		}
		if len(e.Items) > 0 && abs64(next-target) >= abs64(size-target) {
			break
		}
		e.Items = append(e.Items, it)
		size = next
	}
	if b, err = json.Marshal(e); err != nil {
		return nil, SweepPoint{}, fmt.Errorf("scenario: sweep: %w", err)
	}
	if int64(len(b)) != size {
		return nil, SweepPoint{}, errors.New("scenario: sweep: size accounting is off (a bug)")
	}
	return e, SweepPoint{Family: SweepFamily, TargetBytes: target, JSONBytes: size, Elements: len(e.Items)}, nil
}

// Catalog of the sweep's order lines.
var (
	sweepProducts = []string{
		"Trail running shoe", "Merino wool socks", "Water bottle 750 ml", "Headlamp 400 lm",
		"Rain jacket, packable", "Hiking pole (pair)", "Down sleeping bag -7 °C", "Camping stove",
		"Titanium spork", "Dry bag 20 l", "First-aid kit", "Sunglasses, polarised",
		"Trekking backpack 45 l", "Insulated mug", "Map case", "Gaiters",
	}
	sweepCurrencies = []string{"EUR", "EUR", "EUR", "USD", "GBP", "CHF"}
)

// orderLine returns the i-th order line of the sweep, drawn from r.
func orderLine(r *rand.Rand, i int) EventItem {
	return EventItem{
		SKU:      fmt.Sprintf("SKU-%06d", r.IntN(1000000)),
		Name:     sweepProducts[r.IntN(len(sweepProducts))],
		Quantity: int32(1 + r.IntN(4)),
		Price:    float64(r.IntN(50000)) / 100,
		Currency: sweepCurrencies[(i+r.IntN(3))%len(sweepCurrencies)],
	}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
