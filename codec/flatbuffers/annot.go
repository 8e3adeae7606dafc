package flatbuffers

import (
	"math"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/flatbuffers/fb"
	"github.com/serbench/serbench/scenario"
)

// The annotation workloads: numeric columns are FlatBuffers vectors of
// scalars, shared with the scenario value on the way in (the object API's
// Pack only reads them); boxes are a vector of structs, which the object
// API holds as one *BoxT per box.

// bindAnnot returns the Binding of an annotation workload type, or nil.
func bindAnnot(id string, lazy bool, sample any) codec.Binding {
	switch sample.(type) {
	case *scenario.SparseMatrix:
		return newBinding(id, lazy, sparseToFB, sparseFromFB, (*fb.SparseMatrixT).Pack, fb.GetRootAsSparseMatrix, (*fb.SparseMatrix).UnPack, touchSparse)
	case *scenario.BoxList:
		return newBinding(id, lazy, boxesToFB, boxesFromFB, (*fb.BoxListT).Pack, fb.GetRootAsBoxList, (*fb.BoxList).UnPack, touchBoxes)
	case *scenario.TimeSeries:
		return newBinding(id, lazy, seriesToFB, seriesFromFB, (*fb.TimeSeriesT).Pack, fb.GetRootAsTimeSeries, (*fb.TimeSeries).UnPack, touchSeries)
	}
	return nil
}

func sparseToFB(s *scenario.SparseMatrix) (*fb.SparseMatrixT, error) {
	return &fb.SparseMatrixT{Rows: s.Rows, Cols: s.Cols, RowIdx: s.RowIdx, ColIdx: s.ColIdx, Values: s.Values}, nil
}

func sparseFromFB(t *fb.SparseMatrixT) *scenario.SparseMatrix {
	return &scenario.SparseMatrix{Rows: t.Rows, Cols: t.Cols, RowIdx: t.RowIdx, ColIdx: t.ColIdx, Values: t.Values}
}

func boxesToFB(s *scenario.BoxList) (*fb.BoxListT, error) {
	t := &fb.BoxListT{}
	if s.Boxes != nil {
		t.Boxes = make([]*fb.BoxT, len(s.Boxes))
		for i := range s.Boxes {
			b := fb.BoxT(s.Boxes[i])
			t.Boxes[i] = &b
		}
	}
	return t, nil
}

func boxesFromFB(t *fb.BoxListT) *scenario.BoxList {
	s := &scenario.BoxList{}
	if t.Boxes != nil {
		s.Boxes = make([]scenario.Box, 0, len(t.Boxes))
		for _, b := range t.Boxes {
			if b != nil {
				s.Boxes = append(s.Boxes, scenario.Box(*b))
			}
		}
	}
	return s
}

func seriesToFB(s *scenario.TimeSeries) (*fb.TimeSeriesT, error) {
	return &fb.TimeSeriesT{Timestamps: s.Timestamps, Values: s.Values}, nil
}

func seriesFromFB(t *fb.TimeSeriesT) *scenario.TimeSeries {
	return &scenario.TimeSeries{Timestamps: t.Timestamps, Values: t.Values}
}

func touchSparse(r *fb.SparseMatrix, g *budget) uint64 {
	sum := uint64(r.Rows()) ^ uint64(r.Cols())<<32
	for j := range g.vec(r.RowIdxLength(), 4) {
		sum += uint64(r.RowIdx(j))
	}
	for j := range g.vec(r.ColIdxLength(), 4) {
		sum += uint64(r.ColIdx(j))
	}
	for j := range g.vec(r.ValuesLength(), 4) {
		sum += uint64(math.Float32bits(r.Values(j)))
	}
	return sum
}

func touchBoxes(r *fb.BoxList, g *budget) uint64 {
	var sum uint64
	var b fb.Box
	for j := range g.vec(r.BoxesLength(), boxBytes) {
		if r.Boxes(&b, j) {
			sum += uint64(math.Float32bits(b.X())^math.Float32bits(b.Y())^math.Float32bits(b.W())^math.Float32bits(b.H())) +
				uint64(b.Label()) + uint64(math.Float32bits(b.Score()))
		}
	}
	return sum
}

func touchSeries(r *fb.TimeSeries, g *budget) uint64 {
	var sum uint64
	for j := range g.vec(r.TimestampsLength(), 8) {
		sum += uint64(r.Timestamps(j))
	}
	for j := range g.vec(r.ValuesLength(), 8) {
		sum += math.Float64bits(r.Values(j))
	}
	return sum
}
