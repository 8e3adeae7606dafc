package mirror

import "time"

// The generators below run from this folder (go generate ./codec/mirror).
// Each writes one file next to this one: types_easyjson.go, types_ffjson.go
// and types_gen.go (msgp). ffjson skips a file whose output is newer than its
// input unless told -force-regenerate, and runs go through ffjson-go.sh,
// which drops the -a (rebuild everything) of its "go run -a" and so saves a
// minute or more per run without changing the output. msgp's -io=false
// leaves out the streaming EncodeMsg/DecodeMsg methods, which serbench does
// not call, and -tests=false its generated tests.
//
//go:generate go tool easyjson -all -no_std_marshalers types.go
//go:generate go tool ffjson -force-regenerate -go-cmd ./ffjson-go.sh types.go
//go:generate go tool msgp -file types.go -o types_gen.go -io=false -tests=false

// SSEEvent mirrors scenario.SSEEvent.
type SSEEvent struct {
	ID     string            `json:"id" msg:"id"`
	Event  string            `json:"event" msg:"event"`
	Data   string            `json:"data" msg:"data"`
	Replay bool              `json:"replay" msg:"replay"`
	Meta   map[string]string `json:"meta,omitempty" msg:"meta,omitempty"`
}

// UserEvent mirrors scenario.UserEvent.
type UserEvent struct {
	EventID    uint64                       `json:"event_id" msg:"event_id"`
	UserID     uint64                       `json:"user_id" msg:"user_id"`
	SessionID  string                       `json:"session_id" msg:"session_id"`
	Type       string                       `json:"type" msg:"type"`
	OccurredAt time.Time                    `json:"occurred_at" msg:"occurred_at"`
	Source     EventSource                  `json:"source" msg:"source"`
	Tags       []string                     `json:"tags" msg:"tags"`
	Items      []EventItem                  `json:"items" msg:"items"`
	Attributes map[string]map[string]string `json:"attributes" msg:"attributes"`
	Scores     []float64                    `json:"scores" msg:"scores"`
	Flags      []bool                       `json:"flags" msg:"flags"`
}

// EventSource mirrors scenario.EventSource.
type EventSource struct {
	App     string `json:"app" msg:"app"`
	Version string `json:"version" msg:"version"`
	OS      string `json:"os" msg:"os"`
	IP      string `json:"ip" msg:"ip"`
	Locale  string `json:"locale" msg:"locale"`
}

// EventItem mirrors scenario.EventItem.
type EventItem struct {
	SKU      string  `json:"sku" msg:"sku"`
	Name     string  `json:"name" msg:"name"`
	Quantity int32   `json:"quantity" msg:"quantity"`
	Price    float64 `json:"price" msg:"price"`
	Currency string  `json:"currency" msg:"currency"`
}

// WSMessage mirrors scenario.WSMessage.
type WSMessage struct {
	Uid       string `json:"uid" msg:"uid"`
	Content   string `json:"content" msg:"content"`
	Timestamp int64  `json:"timestamp" msg:"timestamp"`
}

// Annotation mirrors scenario.Annotation.
type Annotation struct {
	ID        string  `json:"id" msg:"id"`
	Labels    []Label `json:"labels" msg:"labels"`
	Annotator string  `json:"annotator" msg:"annotator"`
	Timestamp int64   `json:"timestamp" msg:"timestamp"`
}

// Label mirrors scenario.Label.
type Label struct {
	Name       string  `json:"name" msg:"name"`
	Confidence float32 `json:"confidence" msg:"confidence"`
	Box        BBox    `json:"box" msg:"box"`
}

// BBox mirrors scenario.BBox.
type BBox struct {
	X float32 `json:"x" msg:"x"`
	Y float32 `json:"y" msg:"y"`
	W float32 `json:"w" msg:"w"`
	H float32 `json:"h" msg:"h"`
}

// UserProfile mirrors scenario.UserProfile.
type UserProfile struct {
	ID        int               `json:"id" msg:"id"`
	Name      string            `json:"name" msg:"name"`
	Email     string            `json:"email" msg:"email"`
	Addresses []Address         `json:"addresses" msg:"addresses"`
	IsActive  bool              `json:"is_active" msg:"is_active"`
	CreatedAt time.Time         `json:"created_at" msg:"created_at"`
	Metadata  map[string]string `json:"metadata" msg:"metadata"`
}

// Address mirrors scenario.Address.
type Address struct {
	Street    string `json:"street" msg:"street"`
	City      string `json:"city" msg:"city"`
	State     string `json:"state" msg:"state"`
	ZipCode   string `json:"zip_code" msg:"zip_code"`
	IsBilling bool   `json:"is_billing" msg:"is_billing"`
}

// SparseMatrix mirrors scenario.SparseMatrix (annot/coo).
type SparseMatrix struct {
	Rows   int32     `json:"rows" msg:"rows"`
	Cols   int32     `json:"cols" msg:"cols"`
	RowIdx []int32   `json:"row_idx" msg:"row_idx"`
	ColIdx []int32   `json:"col_idx" msg:"col_idx"`
	Values []float32 `json:"values" msg:"values"`
}

// BoxList mirrors scenario.BoxList (annot/bbox).
type BoxList struct {
	Boxes []Box `json:"boxes" msg:"boxes"`
}

// Box mirrors scenario.Box.
type Box struct {
	X     float32 `json:"x" msg:"x"`
	Y     float32 `json:"y" msg:"y"`
	W     float32 `json:"w" msg:"w"`
	H     float32 `json:"h" msg:"h"`
	Label int32   `json:"label" msg:"label"`
	Score float32 `json:"score" msg:"score"`
}

// TimeSeries mirrors scenario.TimeSeries (annot/series).
type TimeSeries struct {
	Timestamps []int64   `json:"timestamps" msg:"timestamps"`
	Values     []float64 `json:"values" msg:"values"`
}
