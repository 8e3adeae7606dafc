package mirror

import "github.com/serbench/serbench/scenario"

// Conversions of the annotation workloads: the numeric columns are shared,
// the boxes copied (their element types differ).

func sparseToMirror(s *scenario.SparseMatrix) *SparseMatrix {
	return &SparseMatrix{Rows: s.Rows, Cols: s.Cols, RowIdx: s.RowIdx, ColIdx: s.ColIdx, Values: s.Values}
}

func sparseFromMirror(m *SparseMatrix) *scenario.SparseMatrix {
	return &scenario.SparseMatrix{Rows: m.Rows, Cols: m.Cols, RowIdx: m.RowIdx, ColIdx: m.ColIdx, Values: m.Values}
}

func boxesToMirror(s *scenario.BoxList) *BoxList {
	m := &BoxList{}
	if s.Boxes != nil {
		m.Boxes = make([]Box, len(s.Boxes))
		for i, b := range s.Boxes {
			m.Boxes[i] = Box(b)
		}
	}
	return m
}

func boxesFromMirror(m *BoxList) *scenario.BoxList {
	s := &scenario.BoxList{}
	if m.Boxes != nil {
		s.Boxes = make([]scenario.Box, len(m.Boxes))
		for i, b := range m.Boxes {
			s.Boxes[i] = scenario.Box(b)
		}
	}
	return s
}

func seriesToMirror(s *scenario.TimeSeries) *TimeSeries {
	return &TimeSeries{Timestamps: s.Timestamps, Values: s.Values}
}

func seriesFromMirror(m *TimeSeries) *scenario.TimeSeries {
	return &scenario.TimeSeries{Timestamps: m.Timestamps, Values: m.Values}
}
