package capnp

import (
	"runtime"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/scenario"
)

// TestHostileAmplification checks serbench hostile's Cap'n Proto inputs on
// user-event: "far/double" reads as the valid message does; "dag/3" reads
// as every list three times its first element; at the default fan-out
// both codecs stop at the traversal limit.
func TestHostileAmplification(t *testing.T) {
	v := scenario.NewUserEvent()
	for _, c := range []codec.Codec{New(), NewLazy()} {
		b, err := c.Bind(v)
		if err != nil {
			t.Fatal(err)
		}
		valid, err := b.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		decode := func(data []byte) (*scenario.UserEvent, error) {
			out, err := b.Unmarshal(data)
			if err == nil {
				out, err = codec.Value(b, out)
			}
			if err != nil {
				return nil, err
			}
			return out.(*scenario.UserEvent), nil
		}
		byName := map[string][]byte{}
		for _, in := range hostile.Amplifications(hostile.FormatCapnp, valid, 3) {
			byName[in.Name] = in.Data
		}
		far, err := decode(byName["far/double"])
		if err != nil {
			t.Fatalf("%s: far/double: %v", c.Info().ID, err)
		}
		if err := fidelity.Diff(v, far); err != nil {
			t.Errorf("%s: far/double reads differently from the valid message: %v", c.Info().ID, err)
		}
		dag, err := decode(byName["dag/3"])
		if err != nil {
			t.Fatalf("%s: dag/3: %v", c.Info().ID, err)
		}
		if len(dag.Tags) != 3 || dag.Tags[2] != v.Tags[0] || len(dag.Items) != 3 || dag.Items[2] != v.Items[0] {
			t.Errorf("%s: dag/3 read as tags %q, %d items; want 3 copies of the first of each", c.Info().ID, dag.Tags, len(dag.Items))
		}
		big := hostile.Amplifications(hostile.FormatCapnp, valid, hostile.DefaultFanout)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = decode(big[0].Data)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "traversal limit") {
			t.Errorf("%s: %s (%d bytes): err = %v, want the traversal limit", c.Info().ID, big[0].Name, len(big[0].Data), err)
		}
		// The library's own default (64 MiB whatever the input) lets this
		// input allocate hundreds of MB; the limit of its size, a few.
		if got, most := after.TotalAlloc-before.TotalAlloc, uint64(16*len(big[0].Data)+1<<20); got > most {
			t.Errorf("%s: decoding %s (%d bytes) allocated %d bytes, want at most %d", c.Info().ID, big[0].Name, len(big[0].Data), got, most)
		}
	}
}
