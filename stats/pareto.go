package stats

// ParetoFront returns the indices, in increasing order, of the points of
// the Pareto front of (cost[i], size[i]) when both are to be minimised
// (Pareto optimality; a point is on the front when no other point is at
// least as good in both and better in one): a point dominated by another
// is left out, equal points all stay. cost and size have one value per
// point (any unit: ns/op and bytes for the recommendation).
func ParetoFront(cost, size []float64) []int {
	var front []int
	for i := range cost {
		dominated := false
		for j := range cost {
			if cost[j] <= cost[i] && size[j] <= size[i] && (cost[j] < cost[i] || size[j] < size[i]) {
				dominated = true
				break
			}
		}
		if !dominated {
			front = append(front, i)
		}
	}
	return front
}
