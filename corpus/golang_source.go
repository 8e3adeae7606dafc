package corpus

// GolangSource is golang_source.json: the file tree of the Go source
// repository annotated with change statistics, as a visualisation tool
// exported it. The tree nests 16 levels of
// nodes.
type GolangSource struct {
	Tree     GolangNode `json:"tree"`
	Username string     `json:"username"`
}

// GolangNode is one file or folder of the tree. Files have an empty (not
// null) Kids list.
type GolangNode struct {
	Name     string       `json:"name"`
	Kids     []GolangNode `json:"kids"`
	ClWeight float64      `json:"cl_weight"` // change-list weight; fractional for most nodes
	Touches  int64        `json:"touches"`   // number of changes
	MinT     int64        `json:"min_t"`     // first change, Unix seconds
	MaxT     int64        `json:"max_t"`     // last change, Unix seconds
	MeanT    int64        `json:"mean_t"`    // mean change time, Unix seconds
}
