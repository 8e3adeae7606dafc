// Apache Thrift IDL for the five seed scenarios of serbench
// (docs/reference.md, "Scenarios"; Go types in scenario/seeds.go). Written
// for this project; compiled by Debian 12's thrift 0.17.0 into
// codec/thrift/thriftgen (see codec/thrift/generate_test.go).
//
// One struct per scenario type, one field per Go field, numbered in the
// order of the Go struct. Type mapping:
//   - string, bool, i32 keep their Go namesakes; float64 and float32 are
//     double (Thrift has no 32-bit float: a float32 widens exactly);
//     uint64 is i64 with the same bits (Thrift has no unsigned types);
//     Go int (UserProfile.ID) is i64.
//   - time.Time is struct Time: Unix seconds, nanoseconds within the second
//     and the offset from UTC in seconds (the zone name is lost).
//   - Maps are Thrift maps, map[string]map[string]string a map of maps.
//   - Lists and maps are optional, so that a nil one is left out and decodes
//     as nil while an empty one decodes as empty.
namespace go thriftgen

// Time is a time.Time: its instant and its offset from UTC.
struct Time {
  1: i64 unix_seconds
  2: i32 nanos
  3: i32 offset_seconds
}

// SSEEvent is scenario.SSEEvent (sse-event).
struct SSEEvent {
  1: string id
  2: string event
  3: string data
  4: bool replay
  5: optional map<string, string> meta
}

// UserEvent is scenario.UserEvent (user-event).
struct UserEvent {
  1: i64 event_id
  2: i64 user_id
  3: string session_id
  4: string type
  5: Time occurred_at
  6: EventSource source
  7: optional list<string> tags
  8: optional list<EventItem> items
  9: optional map<string, map<string, string>> attributes
  10: optional list<double> scores
  11: optional list<bool> flags
}

// EventSource is scenario.EventSource.
struct EventSource {
  1: string app
  2: string version
  3: string os
  4: string ip
  5: string locale
}

// EventItem is scenario.EventItem.
struct EventItem {
  1: string sku
  2: string name
  3: i32 quantity
  4: double price
  5: string currency
}

// WSMessage is scenario.WSMessage (ws-message).
struct WSMessage {
  1: string uid
  2: string content
  3: i64 timestamp // Unix milliseconds
}

// Annotation is scenario.Annotation (annotation).
struct Annotation {
  1: string id
  2: optional list<Label> labels
  3: string annotator
  4: i64 timestamp // Unix nanoseconds
}

// Label is scenario.Label.
struct Label {
  1: string name
  2: double confidence // a float32 in [0,1]
  3: BBox box
}

// BBox is scenario.BBox: top-left corner, width and height in pixels (float32).
struct BBox {
  1: double x
  2: double y
  3: double w
  4: double h
}

// UserProfile is scenario.UserProfile (user-profile).
struct UserProfile {
  1: i64 id
  2: string name
  3: string email
  4: optional list<Address> addresses
  5: bool is_active
  6: Time created_at
  7: optional map<string, string> metadata
}

// Address is scenario.Address.
struct Address {
  1: string street
  2: string city
  3: string state
  4: string zip_code
  5: bool is_billing
}
