package codec

import "fmt"

// RecoverEncode turns a panic in a library's encoder into *err,
// "<id>: encoding <type of v> panicked: <panic value>". recover works only
// in the deferred call itself, so defer RecoverEncode directly, as the
// first statement of a Marshal function with a named error result:
//
//	func marshal(v any) (data []byte, err error) {
//		defer codec.RecoverEncode(&err, ID, v)
//		...
//
// The data result keeps whatever it held when the panic struck (nil when
// the panic came from the library call whose result it was to be).
func RecoverEncode(err *error, id string, v any) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s: encoding %T panicked: %v", id, v, p)
	}
}

// RecoverDecode turns a panic in a library's decoder into *err,
// "<id>: decoding <len(data)> bytes panicked: <panic value>"; defer it
// directly, as RecoverEncode.
func RecoverDecode(err *error, id string, data []byte) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s: decoding %d bytes panicked: %v", id, len(data), p)
	}
}
