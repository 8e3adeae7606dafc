package stats

import (
	"math"
	"slices"
)

// Modes describes a cell whose samples are bimodal, two clusters (modes)
// of speed rather than one: on a machine whose CPUs are hyperthreads of one core, a codec
// runs at one speed while the sibling CPU is idle and at another, often
// 1.5 to 2 times slower, while it is busy; a GC cycle that lands in some
// samples and not others does the same. The median of such samples
// describes neither speed. Timing noise only ever adds time (Chen and
// Revels, "Robust benchmarking in noisy environments", 2016,
// arXiv:1608.04295), so the fast cluster is the estimate of the
// undisturbed machine. DetectModes finds them.
type Modes struct {
	// FastNs and SlowNs are the median ns/op of the fast and of the slow
	// cluster; FastNs < SlowNs.
	FastNs float64 `json:"fast_ns"`
	SlowNs float64 `json:"slow_ns"`
	// SlowShare is the fraction of the samples in the slow cluster, in
	// (0, 1): at least MinModeShare and at most 1 - MinModeShare.
	SlowShare float64 `json:"slow_share"`
	// Ratio is SlowNs over FastNs, at least MinModeRatio.
	Ratio float64 `json:"ratio"`
}

// The thresholds of DetectModes.
const (
	// MinModeSamples is the fewest samples DetectModes judges: with
	// fewer, two clusters of MinModeCluster samples each leave nothing
	// to tell a cluster from a chance gap. 10 is the default count.
	MinModeSamples = 10
	// MinModeCluster and MinModeShare are the smallest cluster, in
	// samples and as a fraction of all samples. A handful of slow samples
	// are outliers (a preemption, one GC cycle), not a second speed: 2 of
	// 40 samples 3 times slower stay outliers.
	MinModeCluster = 3
	MinModeShare   = 0.10
	// MinModeRatio is the smallest ratio of the cluster medians: a
	// unimodal cell with a 5-10% spread, split at its middle, has halves
	// whose medians are less than 1.2 apart, and a difference that small
	// would not change a reader's conclusion anyway.
	MinModeRatio = 1.2
	// MinModeSeparation is the smallest Ashman's D of the split,
	// D = sqrt(2)|m1-m2| / sqrt(s1²+s2²) on log(ns), m and s each
	// cluster's mean and standard deviation. D > 2 is the usual test for
	// two Gaussians fitted as a mixture (Ashman, Bird and Zepf 1994, AJ
	// 108:2348), but here the clusters are cut from one sorted sample,
	// which narrows each of them: one normal sample cut at its median
	// already has D = 2.7, one uniform sample sqrt(12) = 3.5, and small
	// samples scatter above that. Two speeds 1.8 times apart with a 5%
	// spread each have a D near 12, with 10% each near 6. At 5, in
	// simulation (4,000 draws per case), a normal sample with a 10%
	// spread is flagged in 1.6% of draws of 10 samples and none of 40,
	// and two clusters 1.8 times apart with 5% spread in 87% of draws of
	// 10 samples and all draws of 20 or more.
	MinModeSeparation = 5
)

// DetectModes reports whether samples (ns/op, in the order taken) are
// bimodal, two clearly separate clusters, and describes them; nil when they do not,
// when there are fewer than MinModeSamples, or when any sample is not a
// finite positive number.
//
// The method is a two-means split on log(ns) (Otsu's threshold in one
// dimension): of every split of the sorted samples into a fast and a slow
// cluster of at least MinModeCluster samples and MinModeShare of all,
// it takes the one with the least within-cluster sum of squares, found
// exactly in one pass over prefix sums. Logarithms because contention
// scales time: both clusters then have the same spread in log units.
// Restricting the split to clusters of the minimum size keeps a far
// outlier from taking the split for itself and hiding a real second speed.
// The split is accepted when the ratio of the cluster medians is at least
// MinModeRatio and their Ashman's D at least MinModeSeparation. The
// result depends on the samples only, not on their order; DetectModes
// allocates one copy of samples.
func DetectModes(samples []float64) *Modes {
	n := len(samples)
	if n < MinModeSamples {
		return nil
	}
	for _, x := range samples {
		if !(x > 0) || math.IsInf(x, 1) {
			return nil
		}
	}
	minSize := max(MinModeCluster, int(math.Ceil(MinModeShare*float64(n))))
	if 2*minSize > n {
		return nil
	}
	xs := slices.Clone(samples)
	slices.Sort(xs)
	// Sums are taken around the log of the median so that sums of squares
	// do not lose the small spread against the large mean.
	center := math.Log(xs[n/2])
	var sum, sumSq float64
	for _, x := range xs {
		d := math.Log(x) - center
		sum += d
		sumSq += d * d
	}
	// sse is the within-cluster sum of squares of k values whose sum and
	// sum of squares are s and q.
	sse := func(s, q float64, k int) float64 { return q - s*s/float64(k) }
	best, bestSSE := 0, math.Inf(1)
	var left, leftSq float64
	for k := 1; k <= n-minSize; k++ {
		d := math.Log(xs[k-1]) - center
		left += d
		leftSq += d * d
		if k < minSize {
			continue
		}
		if e := sse(left, leftSq, k) + sse(sum-left, sumSq-leftSq, n-k); e < bestSSE {
			best, bestSSE = k, e
		}
	}
	fast, slow := xs[:best], xs[best:]
	r := &Modes{FastNs: sortedMedian(fast), SlowNs: sortedMedian(slow), SlowShare: float64(len(slow)) / float64(n)}
	r.Ratio = r.SlowNs / r.FastNs
	if !(r.Ratio >= MinModeRatio) || !(ashmanD(fast, slow) >= MinModeSeparation) {
		return nil
	}
	return r
}

// sortedMedian returns the median of xs, sorted and not empty.
func sortedMedian(xs []float64) float64 {
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// ashmanD returns Ashman's D of two clusters of at least two positive
// samples each, on log(ns): +Inf when neither has any spread and their
// means differ.
func ashmanD(a, b []float64) float64 {
	ma, va := logMeanVar(a)
	mb, vb := logMeanVar(b)
	return math.Sqrt2 * math.Abs(ma-mb) / math.Sqrt(va+vb)
}

// logMeanVar returns the mean and the sample variance of log(x) over xs.
func logMeanVar(xs []float64) (mean, variance float64) {
	for _, x := range xs {
		mean += math.Log(x)
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		d := math.Log(x) - mean
		variance += d * d
	}
	return mean, variance / float64(len(xs)-1)
}
