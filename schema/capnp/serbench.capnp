# Cap'n Proto schema for the five seed scenarios of serbench
# (docs/reference.md, "Scenarios"; Go types in scenario/seeds.go). Written for
# this project; compiled by Debian 12's capnp 0.9.2 with capnpc-go (pinned in
# go.mod) into codec/capnp/capnpb (see codec/capnp/generate_test.go).
#
# One struct per scenario type, one field per Go field, numbered in the
# order of the Go struct. Type mapping:
#   - string is Text, bool Bool, int32 Int32, uint64 UInt64, float64 Float64,
#     float32 Float32; Go int (UserProfile.ID) is Int64.
#   - time.Time is struct Time: Unix seconds, nanoseconds within the second
#     and the offset from UTC in seconds (the zone name is lost).
#   - Cap'n Proto has no map type: map[string]string is a list of
#     StringEntry sorted by key, map[string]map[string]string a list of
#     StringMapEntry.
#   - A pointer field (Text, List, struct) can be null: a nil slice or map
#     is written as null and read back as nil, an empty one as an empty list.
@0xbfbd1c27f314526c;

using Go = import "/go.capnp";
$Go.package("capnpb");
$Go.import("github.com/serbench/serbench/codec/capnp/capnpb");

# Time is a time.Time: its instant and its offset from UTC.
struct Time {
  unixSeconds @0 :Int64;
  nanos @1 :Int32;
  offsetSeconds @2 :Int32;
}

# StringEntry is one key and value of a map[string]string.
struct StringEntry {
  key @0 :Text;
  value @1 :Text;
}

# StringMapEntry is one key and inner map of a map[string]map[string]string.
struct StringMapEntry {
  key @0 :Text;
  value @1 :List(StringEntry);
}

# SSEEvent is scenario.SSEEvent (sse-event).
struct SSEEvent {
  id @0 :Text;
  event @1 :Text;
  data @2 :Text;
  replay @3 :Bool;
  meta @4 :List(StringEntry);
}

# UserEvent is scenario.UserEvent (user-event).
struct UserEvent {
  eventId @0 :UInt64;
  userId @1 :UInt64;
  sessionId @2 :Text;
  type @3 :Text;
  occurredAt @4 :Time;
  source @5 :EventSource;
  tags @6 :List(Text);
  items @7 :List(EventItem);
  attributes @8 :List(StringMapEntry);
  scores @9 :List(Float64);
  flags @10 :List(Bool);
}

# EventSource is scenario.EventSource.
struct EventSource {
  app @0 :Text;
  version @1 :Text;
  os @2 :Text;
  ip @3 :Text;
  locale @4 :Text;
}

# EventItem is scenario.EventItem.
struct EventItem {
  sku @0 :Text;
  name @1 :Text;
  quantity @2 :Int32;
  price @3 :Float64;
  currency @4 :Text;
}

# WSMessage is scenario.WSMessage (ws-message).
struct WSMessage {
  uid @0 :Text;
  content @1 :Text;
  timestamp @2 :Int64; # Unix milliseconds
}

# Annotation is scenario.Annotation (annotation).
struct Annotation {
  id @0 :Text;
  labels @1 :List(Label);
  annotator @2 :Text;
  timestamp @3 :Int64; # Unix nanoseconds
}

# Label is scenario.Label.
struct Label {
  name @0 :Text;
  confidence @1 :Float32; # in [0,1]
  box @2 :BBox;
}

# BBox is scenario.BBox: top-left corner, width and height in pixels.
struct BBox {
  x @0 :Float32;
  y @1 :Float32;
  w @2 :Float32;
  h @3 :Float32;
}

# UserProfile is scenario.UserProfile (user-profile).
struct UserProfile {
  id @0 :Int64;
  name @1 :Text;
  email @2 :Text;
  addresses @3 :List(Address);
  isActive @4 :Bool;
  createdAt @5 :Time;
  metadata @6 :List(StringEntry);
}

# Address is scenario.Address.
struct Address {
  street @0 :Text;
  city @1 :Text;
  state @2 :Text;
  zipCode @3 :Text;
  isBilling @4 :Bool;
}
