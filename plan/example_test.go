package plan_test

import (
	"fmt"

	"github.com/serbench/serbench/plan"
)

// Compute ranks two options for 1000 msg/s to 10 receivers on a 2-core
// server: the smaller payload wins on egress. By hand for "binary": send
// 300 + 10·(2000 + 40) = 20700 ns → 0.0207 cores; receive 10·500 ns →
// 0.005; CPU 0.0257·730·0.04 = $0.75; egress 480,000 B/s over 2,628,000 s
// = 1261.44 GB · 0.09 = $113.53. With a library user's own
// type, the options come from plan.FromResults over bench.Matrix's results.
func ExampleCompute() {
	in := plan.Inputs{Rate: 1000, Fanout: 10, Cores: 2, CPUPrice: 0.04, EgressPrice: 0.09,
		Transport: plan.Transport{NsPerMsg: 2000, NsPerByte: 1, FrameBytes: 8}}
	opts := []plan.Option{
		{Codec: "json", Compressor: plan.None, MarshalNs: plan.Point(1000), UnmarshalNs: plan.Point(2000), PayloadBytes: 100},
		{Codec: "binary", Compressor: plan.None, MarshalNs: plan.Point(300), UnmarshalNs: plan.Point(500), PayloadBytes: 40, Binary: true},
	}
	res, err := plan.Compute(in, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Rows {
		fmt.Printf("%s: %.4f server cores, %.3f MB/s, $%.2f/month, %s binds at %.0f msg/s\n",
			r.Codec, r.SendCores.Mid, r.EgressBps/1e6, r.Cost, r.Binds, r.MaxRate)
	}
	// Output:
	// binary: 0.0207 server cores, 0.480 MB/s, $114.28/month, cpu binds at 96618 msg/s
	// json: 0.0220 server cores, 1.080 MB/s, $256.67/month, cpu binds at 90909 msg/s
}
