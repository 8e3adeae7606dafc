package evolve

import (
	"fmt"
)

// Direction is what one reader made of one writer's bytes.
type Direction struct {
	Outcome Outcome `json:"outcome"`
	// Detail has one line per field lost or wrong, or the error.
	Detail []string `json:"detail,omitempty"`
	// Bytes is the size of the message the writer wrote.
	Bytes int `json:"bytes"`
}

// Survival answers: do the fields an old reader did not know survive its
// decode → encode pass?
type Survival string

// The answers of Survival (see the package doc).
const (
	Survives    Survival = "yes"
	DoesNotKeep Survival = "no"
	NotAsked    Survival = "n/a"
)

// Cell is one (codec, change) of the matrix.
type Cell struct {
	Codec  string `json:"codec"`
	Change string `json:"change"`
	// OldToNew is a v1 writer read by a v2 reader; NewToOld the reverse.
	OldToNew Direction `json:"old_to_new"`
	NewToOld Direction `json:"new_to_old"`
	// Unknown is whether what the v1 reader did not know survives its
	// decode → encode pass, read back by v2; UnknownDetail the fields that
	// did not.
	Unknown       Survival `json:"unknown_fields_survive"`
	UnknownDetail []string `json:"unknown_detail,omitempty"`
}

// Run fills the matrix of codecs × changes, codecs in the outer loop. A
// codec that cannot build its sides for a change is an error; a decode
// that fails or panics is a cell with outcome Error.
func Run(codecs []Codec, changes []Change) ([]Cell, error) {
	var cells []Cell
	for _, c := range codecs {
		for _, ch := range changes {
			v1, v2, err := c.Sides(ch)
			if err != nil {
				return nil, fmt.Errorf("evolve: codec %s, change %s: %w", c.ID, ch.ID, err)
			}
			cell, err := runCell(c.ID, ch, v1, v2)
			if err != nil {
				return nil, err
			}
			cells = append(cells, cell)
		}
	}
	return cells, nil
}

func runCell(codecID string, ch Change, v1, v2 Side) (Cell, error) {
	cell := Cell{Codec: codecID, Change: ch.ID, Unknown: NotAsked}
	old, err := v1.Encode(ch.V1)
	if err != nil {
		return cell, fmt.Errorf("evolve: codec %s, change %s: v1 writer: %w", codecID, ch.ID, err)
	}
	nw, err := v2.Encode(ch.V2)
	if err != nil {
		return cell, fmt.Errorf("evolve: codec %s, change %s: v2 writer: %w", codecID, ch.ID, err)
	}
	got, _, err := safeDecode(v2, old)
	cell.OldToNew = direction(ch.V1, v2.Fields, got, err, len(old))
	got, again, err := safeDecode(v1, nw)
	cell.NewToOld = direction(ch.V2, v1.Fields, got, err, len(nw))
	if st, ok := got["status"].(int64); ok && err == nil && Status(st) > Paid {
		cell.NewToOld.Detail = append(cell.NewToOld.Detail,
			fmt.Sprintf("status: read %d, which v1's Status does not name (kept as a number)", st))
	}
	if o := cell.NewToOld.Outcome; o == FieldLost || o == WrongValue {
		cell.Unknown, cell.UnknownDetail = survival(ch.V2, v2, again)
	}
	return cell, nil
}

func direction(written Record, readerFields []string, got Record, err error, n int) Direction {
	o, detail := Classify(written, readerFields, got, err)
	return Direction{Outcome: o, Detail: detail, Bytes: n}
}

// survival encodes the old reader's decoded value again (again) and reads
// it with the new version, comparing with what the new writer wrote.
func survival(written Record, v2 Side, again func() ([]byte, error)) (Survival, []string) {
	b, err := safeAgain(again)
	if err != nil {
		return DoesNotKeep, []string{"re-encoding by v1: " + err.Error()}
	}
	got, _, err := safeDecode(v2, b)
	if o, detail := Classify(written, v2.Fields, got, err); o != OK {
		return DoesNotKeep, detail
	}
	return Survives, nil
}

// safeDecode runs s.Decode, turning a panic into an error.
func safeDecode(s Side, data []byte) (r Record, again func() ([]byte, error), err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("evolve: decoder panicked: %v", p)
		}
	}()
	return s.Decode(data)
}

func safeAgain(again func() ([]byte, error)) (b []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("evolve: encoder panicked: %v", p)
		}
	}()
	return again()
}
