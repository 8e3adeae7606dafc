package scenario_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/serbench/serbench/scenario"
)

func TestAnnotIDsAndCounts(t *testing.T) {
	ss := scenario.Annot()
	var ids []string
	for _, s := range ss {
		ids = append(ids, s.ID)
	}
	want := []string{
		"annot/coo@small", "annot/coo@medium", "annot/coo@large",
		"annot/bbox@small", "annot/bbox@medium", "annot/bbox@large",
		"annot/series@small", "annot/series@medium", "annot/series@large",
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("IDs = %v, want %v", ids, want)
	}
	for i, s := range ss {
		n := scenario.AnnotSizes[i%3].Elements
		if s.Elements != n {
			t.Errorf("%s: Elements = %d, want %d", s.ID, s.Elements, n)
		}
		var got int
		switch v := s.Value().(type) {
		case *scenario.SparseMatrix:
			got = len(v.Values)
			if len(v.RowIdx) != got || len(v.ColIdx) != got {
				t.Errorf("%s: %d row and %d column indices for %d values", s.ID, len(v.RowIdx), len(v.ColIdx), got)
			}
		case *scenario.BoxList:
			got = len(v.Boxes)
		case *scenario.TimeSeries:
			got = len(v.Values)
			if len(v.Timestamps) != got {
				t.Errorf("%s: %d timestamps for %d values", s.ID, len(v.Timestamps), got)
			}
		default:
			t.Fatalf("%s: unexpected type %T", s.ID, v)
		}
		if got != n {
			t.Errorf("%s: %d elements, want %d", s.ID, got, n)
		}
		if s.Type != reflect.TypeOf(s.Value()).String() {
			t.Errorf("%s: Type %q, value is %T", s.ID, s.Type, s.Value())
		}
	}
}

func TestAnnotDeterministic(t *testing.T) {
	for _, n := range []int{0, 1, 257} {
		if a, b := scenario.NewSparseMatrix(n), scenario.NewSparseMatrix(n); !reflect.DeepEqual(a, b) {
			t.Errorf("NewSparseMatrix(%d) differs between calls", n)
		}
		if a, b := scenario.NewBoxList(n), scenario.NewBoxList(n); !reflect.DeepEqual(a, b) {
			t.Errorf("NewBoxList(%d) differs between calls", n)
		}
		if a, b := scenario.NewTimeSeries(n), scenario.NewTimeSeries(n); !reflect.DeepEqual(a, b) {
			t.Errorf("NewTimeSeries(%d) differs between calls", n)
		}
	}
	// Fixed values: a change of generator changes the published tables.
	m := scenario.NewSparseMatrix(100)
	s := scenario.NewTimeSeries(3)
	b := scenario.NewBoxList(1)
	if m.RowIdx[0] != 1 || m.ColIdx[0] != 41 || m.Values[0] != 1.8794919 {
		t.Errorf("coo[0] = (%d,%d)=%v, want (1,41)=1.8794919", m.RowIdx[0], m.ColIdx[0], m.Values[0])
	}
	if s.Timestamps[0] != 1788220799999285900 {
		t.Errorf("series[0] at %d, want 1788220799999285900", s.Timestamps[0])
	}
	if want := (scenario.Box{X: 58.5, Y: 1520, W: 56.5, H: 109.75, Label: 51, Score: 0.8647461}); b.Boxes[0] != want {
		t.Errorf("box[0] = %+v, want %+v", b.Boxes[0], want)
	}
}

func TestSparseMatrixShape(t *testing.T) {
	m := scenario.NewSparseMatrix(10_000)
	if m.Rows != 1000 || m.Cols != 1000 {
		t.Errorf("shape %d×%d, want 1000×1000 (10000 entries at density %g)", m.Rows, m.Cols, scenario.COODensity)
	}
	for k := range m.Values {
		if m.RowIdx[k] < 0 || m.RowIdx[k] >= m.Rows || m.ColIdx[k] < 0 || m.ColIdx[k] >= m.Cols {
			t.Fatalf("entry %d at (%d,%d) outside %d×%d", k, m.RowIdx[k], m.ColIdx[k], m.Rows, m.Cols)
		}
		if k > 0 && (m.RowIdx[k] < m.RowIdx[k-1] || m.RowIdx[k] == m.RowIdx[k-1] && m.ColIdx[k] <= m.ColIdx[k-1]) {
			t.Fatalf("entry %d at (%d,%d) not after (%d,%d)", k, m.RowIdx[k], m.ColIdx[k], m.RowIdx[k-1], m.ColIdx[k-1])
		}
	}
}

func TestTimeSeriesJitter(t *testing.T) {
	s := scenario.NewTimeSeries(10_000)
	step, jitter := int64(scenario.SeriesStep), int64(scenario.SeriesJitter)
	for k := 1; k < len(s.Timestamps); k++ {
		d := s.Timestamps[k] - s.Timestamps[k-1]
		if d < step-2*jitter || d > step+2*jitter {
			t.Fatalf("step %d: %d ns, want %d ± %d", k, d, step, 2*jitter)
		}
	}
}

func TestExpand(t *testing.T) {
	all := scenario.Annot()
	got := scenario.Expand(all, []string{"annot/bbox", "x", "annot/coo@small"})
	want := []string{"annot/bbox@small", "annot/bbox@medium", "annot/bbox@large", "x", "annot/coo@small"}
	if !slices.Equal(got, want) {
		t.Errorf("Expand = %v, want %v", got, want)
	}
	if got := scenario.Expand(all, []string{"annot"}); len(got) != 9 {
		t.Errorf("Expand(annot) = %v, want the 9 workloads", got)
	}
}
