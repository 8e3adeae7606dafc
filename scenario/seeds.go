package scenario

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// The generators below use math/rand/v2's PCG with fixed seeds, so every run
// on every machine builds the same values. Times are built in fixed zones
// (time.FixedZone) rather than time.Local, so they do not depend on the
// machine's TZ.

// SSEEvent is one Server-Sent Events message (docs/reference.md, "Scenarios", sse-event).
type SSEEvent struct {
	ID     string            `json:"id"`
	Event  string            `json:"event"`
	Data   string            `json:"data"`
	Replay bool              `json:"replay"`
	Meta   map[string]string `json:"meta,omitempty"`
}

// NewSSEEvent returns the sse-event payload: about 150 bytes as JSON, whose
// Data is a JSON text holding a sequence number and an RFC 3339 time.
func NewSSEEvent() *SSEEvent {
	at := time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.UTC)
	return &SSEEvent{
		ID:    "evt-000000004217",
		Event: "price.update",
		Data:  fmt.Sprintf(`{"seq":4217,"at":%q,"sym":"ACME","px":1234.5}`, at.Format(time.RFC3339Nano)),
		Meta:  map[string]string{"src": "feed-a"},
	}
}

// UserEvent is a structured user event (docs/reference.md, "Scenarios", user-event): about 1.2 KiB
// as JSON, with a nested map, slices, a time.Time and uint64 fields whose
// values exceed 2^53 (which a float64 cannot hold exactly).
type UserEvent struct {
	EventID    uint64                       `json:"event_id"`
	UserID     uint64                       `json:"user_id"`
	SessionID  string                       `json:"session_id"`
	Type       string                       `json:"type"`
	OccurredAt time.Time                    `json:"occurred_at"`
	Source     EventSource                  `json:"source"`
	Tags       []string                     `json:"tags"`
	Items      []EventItem                  `json:"items"`
	Attributes map[string]map[string]string `json:"attributes"`
	Scores     []float64                    `json:"scores"`
	Flags      []bool                       `json:"flags"`
}

// EventSource says where a UserEvent came from.
type EventSource struct {
	App     string `json:"app"`
	Version string `json:"version"`
	OS      string `json:"os"`
	IP      string `json:"ip"`
	Locale  string `json:"locale"`
}

// EventItem is one product line of a UserEvent.
type EventItem struct {
	SKU      string  `json:"sku"`
	Name     string  `json:"name"`
	Quantity int32   `json:"quantity"`
	Price    float64 `json:"price"`
	Currency string  `json:"currency"`
}

// NewUserEvent returns the user-event payload.
func NewUserEvent() *UserEvent {
	r := rand.New(rand.NewPCG(2, 1200))
	e := &UserEvent{
		EventID:    1<<63 + r.Uint64()>>2, // above 2^53: not exact as a float64
		UserID:     1<<60 + r.Uint64()>>8,
		SessionID:  hexString(r, 32),
		Type:       "checkout.completed",
		OccurredAt: time.Date(2026, 5, 1, 9, 30, 15, 123456789, time.FixedZone("CEST", 2*3600)),
		Source:     EventSource{App: "shop-web", Version: "4.18.2", OS: "linux", IP: "203.0.113.42", Locale: "de-DE"},
		Tags:       []string{"mobile", "returning", "promo-spring", "newsletter", "eu"},
		Attributes: map[string]map[string]string{
			"campaign": {"id": "spring-26", "medium": "email", "variant": "b"},
			"device":   {"model": "Pixel 9", "screen": "1080x2424", "net": "wifi"},
			"payment":  {"method": "card", "brand": "visa", "3ds": "passed"},
			"shipping": {"carrier": "dhl", "speed": "express", "country": "DE"},
		},
		Flags: []bool{true, false, true, true},
	}
	names := []string{"Trail running shoe", "Merino wool socks", "Water bottle 750 ml", "Headlamp 400 lm", "Rain jacket, packable"}
	for i, n := range names {
		e.Items = append(e.Items, EventItem{
			SKU:      fmt.Sprintf("SKU-%06d", r.IntN(1000000)),
			Name:     n,
			Quantity: int32(1 + i%3),
			Price:    float64(r.IntN(20000)) / 100,
			Currency: "EUR",
		})
	}
	for range 6 {
		e.Scores = append(e.Scores, float64(r.IntN(1000000))/1000)
	}
	return e
}

// WSMessage is a chat message pushed over WebSocket (docs/reference.md, "Scenarios", ws-message).
type WSMessage struct {
	Uid       string `json:"uid"`
	Content   string `json:"content"`
	Timestamp int64  `json:"timestamp"` // Unix milliseconds
}

// NewWSMessage returns the ws-message payload: 48 bytes as protobuf, the
// published size, and 86 as JSON. (The published JSON size, 132 bytes, does
// not fit three fields whose protobuf encoding is 48 bytes; it must have
// carried more than this struct.)
func NewWSMessage() *WSMessage {
	return &WSMessage{
		Uid:       "u-9f86d081884c",
		Content:   "see you at standup, 5m!",
		Timestamp: time.Date(2026, 6, 2, 10, 4, 5, 678000000, time.UTC).UnixMilli(),
	}
}

// Annotation is a data-labelling record (docs/reference.md, "Scenarios", annotation).
type Annotation struct {
	ID        string  `json:"id"`
	Labels    []Label `json:"labels"`
	Annotator string  `json:"annotator"`
	Timestamp int64   `json:"timestamp"` // Unix nanoseconds
}

// Label is one labelled object of an Annotation.
type Label struct {
	Name       string  `json:"name"`
	Confidence float32 `json:"confidence"` // in [0,1]
	Box        BBox    `json:"box"`
}

// BBox is a bounding box in pixels: top-left corner, width and height.
type BBox struct {
	X float32 `json:"x"`
	Y float32 `json:"y"`
	W float32 `json:"w"`
	H float32 `json:"h"`
}

// NewAnnotation returns the annotation payload: about 128 bytes in a compact
// binary encoding.
func NewAnnotation() *Annotation {
	r := rand.New(rand.NewPCG(4, 128))
	a := &Annotation{
		ID:        "img-000731",
		Annotator: "ann-17",
		Timestamp: time.Date(2026, 7, 8, 12, 0, 0, 987654321, time.UTC).UnixNano(),
	}
	for _, n := range []string{"car", "pedestrian", "cyclist"} {
		a.Labels = append(a.Labels, Label{
			Name:       n,
			Confidence: float32(r.IntN(1000)) / 1000,
			Box:        BBox{X: float32(r.IntN(1920)), Y: float32(r.IntN(1080)), W: float32(10 + r.IntN(300)), H: float32(10 + r.IntN(300))},
		})
	}
	return a
}

// UserProfile is a user profile (docs/reference.md, "Scenarios", user-profile).
type UserProfile struct {
	ID        int               `json:"id"`
	Name      string            `json:"name"`
	Email     string            `json:"email"`
	Addresses []Address         `json:"addresses"`
	IsActive  bool              `json:"is_active"`
	CreatedAt time.Time         `json:"created_at"`
	Metadata  map[string]string `json:"metadata"`
}

// Address is one postal address of a UserProfile.
type Address struct {
	Street    string `json:"street"`
	City      string `json:"city"`
	State     string `json:"state"`
	ZipCode   string `json:"zip_code"`
	IsBilling bool   `json:"is_billing"`
}

// NewUserProfile returns the user-profile payload.
func NewUserProfile() *UserProfile {
	return &UserProfile{
		ID:    48213,
		Name:  "Ada Quinn",
		Email: "ada.quinn@example.com",
		Addresses: []Address{
			{Street: "221 Harbor Lane", City: "Portland", State: "OR", ZipCode: "97205", IsBilling: true},
			{Street: "9 Elm Court, Apt 4B", City: "Seattle", State: "WA", ZipCode: "98101"},
		},
		IsActive:  true,
		CreatedAt: time.Date(2024, 11, 5, 17, 45, 3, 250000000, time.FixedZone("PST", -8*3600)),
		Metadata:  map[string]string{"plan": "pro", "referrer": "newsletter", "theme": "dark"},
	}
}

func hexString(r *rand.Rand, n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[r.IntN(16)]
	}
	return string(b)
}
