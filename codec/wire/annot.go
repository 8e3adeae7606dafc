package wire

import (
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// Encoders and decoders for the annotation workloads (scenario.SparseMatrix,
// scenario.BoxList, scenario.TimeSeries), laid out as the package doc says.
// Two columns are delta coded: a sorted column of integers (a COO matrix's
// row indices, a series' timestamps) has small differences, which take one
// to four varint bytes where the values themselves take four to nine.

// Smallest encodings of one element, for Decoder.Header.
const (
	minBox     = 4*4 + 1 + 4 // X, Y, W, H, Label, Score
	minFloat32 = 4
	minFloat64 = 8
)

// AppendInt64sDelta appends s as a slice header and, for each element, the
// varint of its difference from the previous one (from 0 for the first),
// computed with wrap-around so that every int64 sequence round-trips.
func AppendInt64sDelta(dst []byte, s []int64) []byte {
	dst = AppendHeader(dst, len(s), s == nil)
	var prev int64
	for _, x := range s {
		dst = AppendVarint(dst, x-prev)
		prev = x
	}
	return dst
}

// Int64sDelta reads what AppendInt64sDelta writes into a new slice.
func (d *Decoder) Int64sDelta() []int64 { return d.int64sDeltaInto(nil) }

// int64sDeltaInto reads what AppendInt64sDelta writes into s's storage when
// it has room.
func (d *Decoder) int64sDeltaInto(s []int64) []int64 {
	n, isNil := d.Header(1)
	if isNil {
		return nil
	}
	s = resize(s, n)
	var prev int64
	for i := range s {
		prev += d.Varint()
		s[i] = prev
	}
	return s
}

// appendInt32s appends s as a slice header and varints; with delta, each
// element's difference from the previous one (from 0 for the first).
func appendInt32s(dst []byte, s []int32, delta bool) []byte {
	dst = AppendHeader(dst, len(s), s == nil)
	var prev int64
	for _, x := range s {
		if delta {
			dst = AppendVarint(dst, int64(x)-prev)
			prev = int64(x)
		} else {
			dst = AppendVarint(dst, int64(x))
		}
	}
	return dst
}

// int32sInto reads what appendInt32s writes, checking every element fits
// an int32.
func (d *Decoder) int32sInto(s []int32, delta bool) []int32 {
	start := d.off
	n, isNil := d.Header(1)
	if isNil {
		return nil
	}
	s = resize(s, n)
	var prev int64
	for i := range s {
		x := d.Varint()
		if delta {
			x += prev
			prev = x
		}
		if int64(int32(x)) != x {
			d.fail(start, ErrInvalid, fmt.Sprintf("element %d: %d overflows int32", i, x))
			return s
		}
		s[i] = int32(x)
	}
	return s
}

// appendSlice appends s as a slice header and each element as f writes it.
func appendSlice[T any](dst []byte, s []T, f func([]byte, T) []byte) []byte {
	dst = AppendHeader(dst, len(s), s == nil)
	for _, x := range s {
		dst = f(dst, x)
	}
	return dst
}

// sliceInto reads what appendSlice writes, each element with f, into s's
// storage when it has room; minSize is the fewest bytes of one element.
func sliceInto[T any](d *Decoder, s []T, minSize int, f func(*Decoder) T) []T {
	n, isNil := d.Header(minSize)
	if isNil {
		return nil
	}
	s = resize(s, n)
	for i := range s {
		s[i] = f(d)
	}
	return s
}

// AppendSparseMatrix appends the message encoding of v.
func AppendSparseMatrix(dst []byte, v *scenario.SparseMatrix) []byte {
	dst = append(dst, Version)
	dst = AppendVarint(dst, int64(v.Rows))
	dst = AppendVarint(dst, int64(v.Cols))
	dst = appendInt32s(dst, v.RowIdx, true)
	dst = appendInt32s(dst, v.ColIdx, false)
	return appendSlice(dst, v.Values, AppendFloat32)
}

// sparseMatrix decodes a message into v, reusing v's slices.
func (d *Decoder) sparseMatrix(v *scenario.SparseMatrix) error {
	d.Version()
	v.Rows = d.Int32()
	v.Cols = d.Int32()
	v.RowIdx = d.int32sInto(v.RowIdx, true)
	v.ColIdx = d.int32sInto(v.ColIdx, false)
	v.Values = sliceInto(d, v.Values, minFloat32, (*Decoder).Float32)
	return d.Finish()
}

// AppendBoxList appends the message encoding of v.
func AppendBoxList(dst []byte, v *scenario.BoxList) []byte {
	dst = append(dst, Version)
	dst = AppendHeader(dst, len(v.Boxes), v.Boxes == nil)
	for i := range v.Boxes {
		b := &v.Boxes[i]
		dst = AppendFloat32(dst, b.X)
		dst = AppendFloat32(dst, b.Y)
		dst = AppendFloat32(dst, b.W)
		dst = AppendFloat32(dst, b.H)
		dst = AppendVarint(dst, int64(b.Label))
		dst = AppendFloat32(dst, b.Score)
	}
	return dst
}

// boxList decodes a message into v, reusing v's slice.
func (d *Decoder) boxList(v *scenario.BoxList) error {
	d.Version()
	if n, isNil := d.Header(minBox); isNil {
		v.Boxes = nil
	} else {
		v.Boxes = resize(v.Boxes, n)
		for i := range v.Boxes {
			b := &v.Boxes[i]
			b.X, b.Y, b.W, b.H = d.Float32(), d.Float32(), d.Float32(), d.Float32()
			b.Label = d.Int32()
			b.Score = d.Float32()
		}
	}
	return d.Finish()
}

// AppendTimeSeries appends the message encoding of v: timestamps delta
// coded (AppendInt64sDelta), values as float64s.
func AppendTimeSeries(dst []byte, v *scenario.TimeSeries) []byte {
	dst = append(dst, Version)
	dst = AppendInt64sDelta(dst, v.Timestamps)
	return appendSlice(dst, v.Values, AppendFloat64)
}

// timeSeries decodes a message into v, reusing v's slices.
func (d *Decoder) timeSeries(v *scenario.TimeSeries) error {
	d.Version()
	v.Timestamps = d.int64sDeltaInto(v.Timestamps)
	v.Values = sliceInto(d, v.Values, minFloat64, (*Decoder).Float64)
	return d.Finish()
}

// SizeSparseMatrix returns the length of AppendSparseMatrix's output.
func SizeSparseMatrix(v *scenario.SparseMatrix) int {
	n := 1 + SizeVarint(int64(v.Rows)) + SizeVarint(int64(v.Cols))
	n += SizeHeader(len(v.RowIdx), v.RowIdx == nil)
	var prev int64
	for _, x := range v.RowIdx {
		n += SizeVarint(int64(x) - prev)
		prev = int64(x)
	}
	n += SizeHeader(len(v.ColIdx), v.ColIdx == nil)
	for _, x := range v.ColIdx {
		n += SizeVarint(int64(x))
	}
	return n + SizeHeader(len(v.Values), v.Values == nil) + 4*len(v.Values)
}

// SizeBoxList returns the length of AppendBoxList's output.
func SizeBoxList(v *scenario.BoxList) int {
	n := 1 + SizeHeader(len(v.Boxes), v.Boxes == nil)
	for i := range v.Boxes {
		n += 20 + SizeVarint(int64(v.Boxes[i].Label))
	}
	return n
}

// SizeTimeSeries returns the length of AppendTimeSeries's output.
func SizeTimeSeries(v *scenario.TimeSeries) int {
	n := 1 + SizeHeader(len(v.Timestamps), v.Timestamps == nil)
	var prev int64
	for _, x := range v.Timestamps {
		n += SizeVarint(x - prev)
		prev = x
	}
	return n + SizeHeader(len(v.Values), v.Values == nil) + 8*len(v.Values)
}

// annotBinding is the Binding of one annotation workload type T. Its
// messages are large, so Marshal sizes the output exactly first (size);
// wire/reuse keeps one output buffer and decodes into one value, whose
// slices it reuses.
type annotBinding[T any] struct {
	bindingBase
	val    T // wire/reuse decodes into it
	want   string
	size   func(*T) int
	append func([]byte, *T) []byte
	decode func(*Decoder, *T) error
}

func newAnnotBinding[T any](base bindingBase, size func(*T) int, app func([]byte, *T) []byte, dec func(*Decoder, *T) error) *annotBinding[T] {
	return &annotBinding[T]{bindingBase: base, want: fmt.Sprintf("%T", new(T)), size: size, append: app, decode: dec}
}

func (b *annotBinding[T]) Marshal(v any) ([]byte, error) {
	p, ok := v.(*T)
	if !ok || p == nil {
		return nil, b.typeErr(v, b.want)
	}
	if b.reuse {
		b.buf = b.append(b.buf[:0], p)
		return b.buf, nil
	}
	return b.append(make([]byte, 0, b.size(p)), p), nil
}

func (b *annotBinding[T]) AppendMarshal(dst []byte, v any) ([]byte, error) {
	p, ok := v.(*T)
	if !ok || p == nil {
		return dst, b.typeErr(v, b.want)
	}
	return b.append(dst, p), nil
}

func (b *annotBinding[T]) Unmarshal(data []byte) (any, error) {
	p := &b.val
	if !b.reuse {
		p = new(T)
	}
	d := numericDecoder(data, b.mode)
	if err := b.decode(&d, p); err != nil {
		return nil, err
	}
	return p, nil
}

// numericDecoder returns a Decoder over data for a message without strings
// (the annotation workloads): unlike init, it makes no string copy of data
// for strings to view, so decoding reads data in place and copies nothing
// but the numbers.
func numericDecoder(data []byte, m DecMode) Decoder {
	return Decoder{data: data, mode: m.resolved(), depth: 1}
}

// bindAnnot returns the Binding of an annotation workload type, or nil.
func bindAnnot(base bindingBase, sample any) codec.Binding {
	switch sample.(type) {
	case *scenario.SparseMatrix:
		return newAnnotBinding(base, SizeSparseMatrix, AppendSparseMatrix, (*Decoder).sparseMatrix)
	case *scenario.BoxList:
		return newAnnotBinding(base, SizeBoxList, AppendBoxList, (*Decoder).boxList)
	case *scenario.TimeSeries:
		return newAnnotBinding(base, SizeTimeSeries, AppendTimeSeries, (*Decoder).timeSeries)
	}
	return nil
}

// appendAnnot appends the encoding of v when it is an annotation workload
// type; ok is false for any other.
func appendAnnot(dst []byte, v any) (out []byte, ok bool) {
	switch p := v.(type) {
	case *scenario.SparseMatrix:
		return AppendSparseMatrix(dst, p), true
	case *scenario.BoxList:
		return AppendBoxList(dst, p), true
	case *scenario.TimeSeries:
		return AppendTimeSeries(dst, p), true
	}
	return dst, false
}

// sizeAnnot returns the encoded length of v when it is an annotation
// workload type; ok is false for any other.
func sizeAnnot(v any) (n int, ok bool) {
	switch p := v.(type) {
	case *scenario.SparseMatrix:
		return SizeSparseMatrix(p), true
	case *scenario.BoxList:
		return SizeBoxList(p), true
	case *scenario.TimeSeries:
		return SizeTimeSeries(p), true
	}
	return 0, false
}

// unmarshalAnnot decodes data into v when it is an annotation workload
// type; ok is false for any other.
func (m DecMode) unmarshalAnnot(data []byte, v any) (err error, ok bool) {
	d := numericDecoder(data, m)
	switch p := v.(type) {
	case *scenario.SparseMatrix:
		*p = scenario.SparseMatrix{}
		return d.sparseMatrix(p), true
	case *scenario.BoxList:
		*p = scenario.BoxList{}
		return d.boxList(p), true
	case *scenario.TimeSeries:
		*p = scenario.TimeSeries{}
		return d.timeSeries(p), true
	}
	return nil, false
}
