package scenario

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"
)

// The annotation workloads (docs/reference.md, "Scenarios", annot/*) are
// the bulk payloads of a data-labelling service: long lists of small numeric
// elements, where what a codec does per element (a packed array, a varint,
// a field name repeated in every object) decides its size and speed. Each
// comes in three sizes; the generators are deterministic (fixed PCG seeds),
// so an ID names the same value on every run and every machine.

// AnnotGroup is the -scenarios name that selects every annotation workload.
const AnnotGroup = "annot"

// AnnotSize is one of the three sizes of an annotation workload.
type AnnotSize struct {
	// Name is the size's part of the scenario ID: "small", "medium", "large".
	Name string
	// Elements is the number of elements: non-zero entries of a sparse
	// matrix, boxes of a box list, points of a time series.
	Elements int
}

// AnnotSizes are the sizes of every annotation workload, smallest first.
var AnnotSizes = []AnnotSize{
	{Name: "small", Elements: 100},
	{Name: "medium", Elements: 10_000},
	{Name: "large", Elements: 100_000},
}

// COODensity is the share of non-zero entries, in (0,1], of the annot/coo
// matrices: the matrix is square, with the smallest side that holds the
// requested number of non-zero entries at this density.
const COODensity = 0.01

// SparseMatrix is a sparse matrix in coordinate (COO) form: entry k is
// Values[k] at row RowIdx[k], column ColIdx[k], sorted by row then column,
// each position at most once. The three slices have the same length.
type SparseMatrix struct {
	Rows   int32     `json:"rows"`
	Cols   int32     `json:"cols"`
	RowIdx []int32   `json:"row_idx"`
	ColIdx []int32   `json:"col_idx"`
	Values []float32 `json:"values"`
}

// NewSparseMatrix returns a square matrix with nnz non-zero entries at
// density COODensity (side ⌈√(nnz/COODensity)⌉), positions drawn uniformly
// without repetition, values drawn from a normal distribution. It panics if
// nnz is negative.
func NewSparseMatrix(nnz int) *SparseMatrix {
	if nnz < 0 {
		panic(fmt.Sprintf("scenario: negative element count %d", nnz))
	}
	side := int64(math.Ceil(math.Sqrt(float64(nnz) / COODensity)))
	r := rand.New(rand.NewPCG(12, uint64(nnz)))
	seen := make(map[int64]bool, nnz)
	pos := make([]int64, 0, nnz)
	for len(pos) < nnz {
		p := r.Int64N(side * side)
		if !seen[p] {
			seen[p] = true
			pos = append(pos, p)
		}
	}
	slices.Sort(pos)
	m := &SparseMatrix{Rows: int32(side), Cols: int32(side),
		RowIdx: make([]int32, nnz), ColIdx: make([]int32, nnz), Values: make([]float32, nnz)}
	for k, p := range pos {
		m.RowIdx[k], m.ColIdx[k] = int32(p/side), int32(p%side)
		m.Values[k] = float32(r.NormFloat64())
	}
	return m
}

// BoxList is the detections of one image: a list of labelled bounding boxes.
type BoxList struct {
	Boxes []Box `json:"boxes"`
}

// Box is one detection: a bounding box in pixels (top-left corner, width,
// height), the ID of its label and the detector's score in [0,1].
type Box struct {
	X     float32 `json:"x"`
	Y     float32 `json:"y"`
	W     float32 `json:"w"`
	H     float32 `json:"h"`
	Label int32   `json:"label"`
	Score float32 `json:"score"`
}

// NewBoxList returns n boxes inside a 3840×2160 image, corners and sizes
// in quarter pixels, labels among 80 classes (as COCO's), scores in steps
// of 1/4096. It panics if n is negative.
func NewBoxList(n int) *BoxList {
	if n < 0 {
		panic(fmt.Sprintf("scenario: negative element count %d", n))
	}
	r := rand.New(rand.NewPCG(13, uint64(n)))
	l := &BoxList{Boxes: make([]Box, n)}
	for i := range l.Boxes {
		l.Boxes[i] = Box{
			X: float32(r.IntN(3600*4)) / 4, Y: float32(r.IntN(2000*4)) / 4,
			W: float32(8+r.IntN(240*4)) / 4, H: float32(8+r.IntN(160*4)) / 4,
			Label: int32(r.IntN(80)), Score: float32(r.IntN(4097)) / 4096,
		}
	}
	return l
}

// SeriesStep is the nominal interval between two points of annot/series,
// and SeriesJitter the most a point's timestamp strays from its nominal
// time, either way.
const (
	SeriesStep   = 10 * time.Millisecond
	SeriesJitter = time.Millisecond
)

// TimeSeries is a stream of measurements: Values[k] taken at
// Timestamps[k] (Unix nanoseconds), timestamps increasing. The two slices
// have the same length.
type TimeSeries struct {
	Timestamps []int64   `json:"timestamps"`
	Values     []float64 `json:"values"`
}

// NewTimeSeries returns n points SeriesStep apart from 2026-09-01 00:00 UTC,
// each timestamp moved by a uniform jitter within ±SeriesJitter, values a
// random walk. It panics if n is negative.
func NewTimeSeries(n int) *TimeSeries {
	if n < 0 {
		panic(fmt.Sprintf("scenario: negative element count %d", n))
	}
	r := rand.New(rand.NewPCG(14, uint64(n)))
	start := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	s := &TimeSeries{Timestamps: make([]int64, n), Values: make([]float64, n)}
	v := 20.0
	for k := range s.Timestamps {
		jitter := r.Int64N(2*int64(SeriesJitter)+1) - int64(SeriesJitter)
		s.Timestamps[k] = start + int64(k)*int64(SeriesStep) + jitter
		v += r.NormFloat64() * 0.05
		s.Values[k] = v
	}
	return s
}

// annotKinds are the three workloads: ID part, description, generator.
var annotKinds = []struct {
	name, doc string
	mk        func(n int) any
	zero      func() any // Scenario.New
}{
	{"coo", fmt.Sprintf("a sparse float32 matrix in COO form (int32 row and column indices), density %g", COODensity),
		func(n int) any { return NewSparseMatrix(n) }, NewOf[SparseMatrix]},
	{"bbox", "a list of bounding boxes: float32 x, y, w, h, an int32 label ID and a float32 score",
		func(n int) any { return NewBoxList(n) }, NewOf[BoxList]},
	{"series", fmt.Sprintf("a time series: int64 Unix-ns timestamps %v apart with ±%v jitter, float64 values", SeriesStep, SeriesJitter),
		func(n int) any { return NewTimeSeries(n) }, NewOf[TimeSeries]},
}

// Annot returns the nine annotation workloads, annot/KIND@SIZE for KIND
// coo, bbox and series and every size of AnnotSizes, in that order. Each
// value is generated on the first call of its Value and kept.
func Annot() []Scenario {
	var out []Scenario
	for _, k := range annotKinds {
		for _, sz := range AnnotSizes {
			value := sync.OnceValue(func() any { return k.mk(sz.Elements) })
			out = append(out, Scenario{
				ID:       fmt.Sprintf("%s/%s@%s", AnnotGroup, k.name, sz.Name),
				Type:     fmt.Sprintf("%T", k.mk(0)),
				Doc:      fmt.Sprintf("%s; %d elements", k.doc, sz.Elements),
				Value:    value,
				New:      k.zero,
				Elements: sz.Elements,
			})
		}
	}
	return out
}

// Expand replaces, in ids, every group name by its members, in the order
// of all: "annot" names every scenario whose ID starts with "annot/", and
// "annot/coo" every size of annot/coo. Other IDs are kept as given, for
// Select to check.
func Expand(all []Scenario, ids []string) []string {
	var out []string
	for _, id := range ids {
		n := len(out)
		if id == AnnotGroup || strings.HasPrefix(id, AnnotGroup+"/") && !strings.Contains(id, "@") {
			for _, s := range all {
				if strings.HasPrefix(s.ID, id+"/") || strings.HasPrefix(s.ID, id+"@") {
					out = append(out, s.ID)
				}
			}
		}
		if len(out) == n {
			out = append(out, id)
		}
	}
	return out
}

// ElementBytes returns size/elements, the encoded bytes per element of a
// list workload, or 0 when elements is not positive.
func ElementBytes(size, elements int) float64 {
	if elements <= 0 {
		return 0
	}
	return float64(size) / float64(elements)
}

// Pick returns the scenarios that ids name (scenario IDs and groups, see
// Expand) among base and the opt-in annotation workloads (Annot), in the
// order of ids; base itself when ids is empty. A name that is none of them
// is an error listing the valid IDs.
func Pick(base []Scenario, ids []string) ([]Scenario, error) {
	if len(ids) == 0 {
		return base, nil
	}
	all := append(slices.Clip(base), Annot()...)
	return Select(all, Expand(all, ids))
}
