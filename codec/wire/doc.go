// Package wire is serbench's own binary codec: a small, schema-driven format
// written by hand for the five seed scenario types (package scenario), with
// append-style encoding, a bounds-checked Decoder for untrusted input, and
// codec.Codec adapters ("wire" and "wire/reuse").
//
// # Format (version 1)
//
// A message is one format-version byte (Version, 0x01) followed by the fields
// of the top-level value in the order the Go type declares them. There are no
// field tags or names: both sides know the type. The building blocks are:
//
//   - uvarint: an unsigned integer in base-128 little-endian groups of 7 bits,
//     high bit set on every byte but the last (the varint of encoding/binary
//     and Protocol Buffers), at most 10 bytes. The shortest form is required:
//     a multi-byte varint whose last byte is 0x00 is an error, as is one that
//     overflows 64 bits.
//   - varint: a signed integer, zig-zag mapped to unsigned ((x << 1) ^ (x >> 63):
//     0, -1, 1, -2 become 0, 1, 2, 3) then written as a uvarint. int, int32 and
//     int64 all use it; decoding an int32 checks the range.
//   - uint64: a uvarint.
//   - bool: one byte, 0x00 (false) or 0x01 (true); any other byte is an error.
//   - float32, float64: the IEEE 754 bits, 4 or 8 bytes little-endian. Every
//     bit pattern round-trips, NaN payloads and -0 included.
//   - string, []byte: a uvarint byte length, then the bytes. Strings are not
//     checked for UTF-8: a Go string is any byte sequence and comes back as
//     it went in.
//   - slice: a uvarint header, then the elements. The header is 0 for a nil
//     slice and n+1 for a slice of n elements, so nil and empty slices stay
//     distinct (package fidelity treats them as different).
//   - map: a uvarint header as for slices (0 for nil, n+1 for n entries),
//     then n key-value pairs with the keys in strictly increasing byte order,
//     so one value always gives the same bytes. A decoder rejects unsorted or
//     repeated keys.
//   - struct: its fields in declaration order, nothing around them.
//   - time.Time: varint Unix seconds, uvarint nanoseconds in [0, 999999999],
//     varint zone offset in seconds east of UTC, in (-86400, 86400). The
//     instant is kept to the nanosecond and the offset to the second. Lost: the
//     location's name and rules (a time in "Europe/Berlin" comes back in an
//     unnamed fixed zone with the same offset; offset 0 comes back as
//     time.UTC) and any monotonic clock reading. Every real zone's offset is
//     within that range; a time.FixedZone outside it encodes but does not
//     decode (ErrInvalid).
//
// Because varints must be minimal, bools must be 0 or 1 and map keys must be
// sorted, the format is canonical: a byte string decodes successfully only
// if re-encoding the result gives the same bytes.
//
// The seed types are laid out as follows (see package scenario for the Go
// types):
//
//	SSEEvent    string ID, string Event, string Data, bool Replay, map[string]string Meta
//	UserEvent   uint64 EventID, uint64 UserID, string SessionID, string Type,
//	            time OccurredAt, EventSource Source, []string Tags,
//	            []EventItem Items, map[string]map[string]string Attributes,
//	            []float64 Scores, []bool Flags
//	EventSource string App, string Version, string OS, string IP, string Locale
//	EventItem   string SKU, string Name, varint Quantity (int32), float64 Price, string Currency
//	WSMessage   string Uid, string Content, varint Timestamp
//	Annotation  string ID, []Label Labels, string Annotator, varint Timestamp
//	Label       string Name, float32 Confidence, BBox Box
//	BBox        float32 X, float32 Y, float32 W, float32 H
//	UserProfile varint ID, string Name, string Email, []Address Addresses,
//	            bool IsActive, time CreatedAt, map[string]string Metadata
//	Address     string Street, string City, string State, string ZipCode, bool IsBilling
//
// The annotation workloads (scenario.Annot) add two column layouts. A
// delta-coded integer slice is a slice header, then for each element the
// varint of its difference from the previous element (from 0 for the
// first; int64 differences wrap around, so any sequence round-trips):
// sorted columns take one to four bytes per element instead of a fixed
// four or eight (AppendInt64sDelta).
//
//	SparseMatrix varint Rows, varint Cols, delta []int32 RowIdx, []int32 ColIdx (varints), []float32 Values
//	BoxList      []Box Boxes
//	Box          float32 X, float32 Y, float32 W, float32 H, varint Label, float32 Score
//	TimeSeries   delta []int64 Timestamps, []float64 Values
//
// # Decoding untrusted input
//
// Every length and count is checked against the bytes that remain before
// anything is allocated: a string of length n needs n more bytes, and a
// collection of n elements needs at least n times the smallest encoding of
// one element. So a decoder allocates at most a bounded multiple of the input
// size: for the seed types, under 20 bytes of Go value per input byte plus a
// small constant (a []string of empty strings is the worst case: 16 bytes of
// string header per 1-byte element); TestAllocationBound measures the worst
// cases and asserts at most 32 bytes per input byte plus 4 KiB. Options (DecOptions) cap collection
// lengths (MaxCollectionLen, default 1048576) and nesting depth (MaxDepth,
// default 32). Decoding never panics; every failure is a *DecodeError naming
// the byte offset and what was wrong, wrapping one of the Err* sentinels.
// Bytes after the value are an error (ErrTrailing).
//
// By default a decoded value's strings share one copy of the input (one
// allocation per message instead of one per string). The copy is private, so
// the caller may reuse its buffer; the cost is that any string kept from the
// value keeps the whole message's bytes alive. DecOptions.CopyStrings makes
// one allocation per string instead.
//
// # Encoding and the codecs
//
// The Append functions (AppendUvarint, AppendString, AppendSSEEvent, ...)
// append to a caller's slice and cannot fail. Marshal sizes its output
// exactly with the Size functions (one allocation). The "wire" codec's
// Binding.Marshal encodes into a stack buffer and copies the result into one
// exactly sized allocation, and so does "wire/lazy"'s; "wire/reuse" appends
// into a buffer the Binding owns and returns it, valid until that Binding's
// next Marshal (no allocation once the buffer has grown). Each Binding
// remembers the sorted keys of the maps it last encoded and writes a map
// with the same keys by lookups, without ranging over it or sorting. The
// "wire" and "wire/reuse" Bindings implement Appender; Bind of any
// type but the five seed types returns an error wrapping
// codec.ErrUnsupported.
//
// # Decoding into reused storage
//
// "wire" Unmarshal returns a new value per call. Its strings view a copy of
// the message that the Binding packs into 4 KiB chunks, message after
// message, each copy written once and never again: one allocation per chunk
// instead of one per message, at the cost that a string kept from a value
// keeps its chunk alive (messages over 1 KiB get a copy of their own). "wire/reuse" Unmarshal
// decodes into a value its Binding owns and returns a pointer to it, valid
// until that Binding's next Unmarshal (codec.Info.ReusesOutput): the value's
// slices are resliced when their capacity suffices, its maps cleared and
// refilled (the inner maps of a map of maps kept as spares), the last
// non-UTC time zone kept while the offset repeats, and its strings all view
// one buffer the Binding owns, into which each Unmarshal first copies the
// message (unsafe.String). The rule that follows: every string of a value,
// map keys included, changes under the caller at the next Unmarshal, so a
// caller copies what it keeps (strings.Clone) or finishes with the value
// before decoding the next message. The input itself may be reused at once.
// Once the storage has grown to a message's shape, decoding a message of
// that shape allocates nothing (all five seed types; TestReuseUnmarshalAllocs).
// A collection encoded as nil sets its field to nil and drops its storage,
// so a stream alternating nil and non-nil collections allocates again.
//
// # Zero-copy views (wire/lazy)
//
// Views (SSEEventView, ...) read a message in place, without building a Go
// value: the counterpart of FlatBuffers' table accessors for this format,
// and what the "wire/lazy" codec's Unmarshal returns (a view its Binding
// owns, valid until the next Unmarshal).
//
// A View function (DecMode.ViewSSEEvent, ...) makes one checked pass over a
// whole message, with every check and limit of Unmarshal and the same
// errors, reading every field once: scalars and top-level strings into the
// view, collections checked element by element (map keys in order) and
// recorded as an offset and a count. Nothing is allocated and nothing is
// copied. The accessors then read in place, and the collection iterators
// re-walk the checked bytes without checks or allocation.
//
// Safety rules:
//
//   - A view, every string it gives (map keys included) and every iterator
//     refer to the bytes passed to View (unsafe.String, no copy). They are
//     valid only while those bytes live unchanged: a caller that reuses or
//     changes the buffer copies what it keeps first (strings.Clone, or
//     Unmarshal instead of View).
//   - Changing the bytes while a view is in use gives wrong strings and
//     values or a panic (index out of range), never a read outside the
//     slice: every in-place string is sliced, bounds-checked, before it is
//     viewed.
//   - Only a View function fills a view; the zero view of each type reads as
//     empty: empty strings, zero numbers, collections of no elements.
//   - Views are not safe for concurrent writes (View into the same view from
//     two goroutines); concurrent reads of a filled view are safe.
package wire
