package bench

import "runtime/metrics"

type gcReading struct {
	cycles   uint64 // /gc/cycles/total:gc-cycles
	heapGoal uint64 // /gc/heap/goal:bytes
}

var gcMetricNames = []string{"/gc/cycles/total:gc-cycles", "/gc/heap/goal:bytes"}

// readGC reads the GC metrics a sample records. Both are supported by every
// Go release since 1.16; a missing one reads as zero (KindBad).
func readGC() gcReading {
	s := make([]metrics.Sample, len(gcMetricNames))
	for i, n := range gcMetricNames {
		s[i].Name = n
	}
	metrics.Read(s)
	var r gcReading
	if s[0].Value.Kind() == metrics.KindUint64 {
		r.cycles = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		r.heapGoal = s[1].Value.Uint64()
	}
	return r
}
