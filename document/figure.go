package document

import "fmt"

// Num prints a figure with three significant digits at most for small
// values and none after the point for large ones: 0.512, 12.3, 537, 12840.
func Num(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.2f", x)
	}
}

// Ns prints a duration in ns with a readable unit and Num's digits:
// "537 ns", "8.27 µs", "12.3 ms".
func Ns(ns float64) string {
	switch {
	case ns >= 1e6:
		return Num(ns/1e6) + " ms"
	case ns >= 1e3:
		return Num(ns/1e3) + " µs"
	}
	return Num(ns) + " ns"
}

// NsInterval prints a median ns/op with the half-width of its 95%
// interval [lo, hi] as a percentage of the median, as benchstat does:
// "537 ±3%"; the median alone when the interval is not known (lo or hi
// 0).
func NsInterval(ns, lo, hi float64) string {
	s := Num(ns)
	if lo > 0 && hi > 0 && ns > 0 {
		hw := max(hi/ns-1, 1-lo/ns)
		s += fmt.Sprintf(" ±%.0f%%", 100*hw)
	}
	return s
}
