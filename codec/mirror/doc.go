// Package mirror holds copies of the five seed payload types of package
// scenario (SSEEvent, UserEvent, WSMessage, Annotation, UserProfile and the
// types they contain) and of the annotation workloads (SparseMatrix,
// BoxList, TimeSeries), with the same fields and JSON names, for the codegen
// codecs that need methods generated onto the types they encode: easyjson,
// ffjson and msgp.
//
// The methods are generated here, never onto package scenario, because
// encoding/json and the other reflection codecs call a type's MarshalJSON and
// UnmarshalJSON when it has them: generating those onto the scenario types
// would make every JSON codec run ffjson's code.
//
// The three generators share these types because their method sets do not
// overlap, so no codec calls another's code:
//
//   - easyjson (types_easyjson.go, run with -no_std_marshalers):
//     MarshalEasyJSON and UnmarshalEasyJSON only, no MarshalJSON.
//   - ffjson (types_ffjson.go): MarshalJSON, MarshalJSONBuf, UnmarshalJSON
//     and UnmarshalJSONFFLexer.
//   - msgp (types_gen.go): MarshalMsg, UnmarshalMsg and Msgsize.
//
// Convs convert scenario values to these types and back; each adapter is a
// codec.Converting over them, whose Bindings are codec.Converters.
package mirror
