package derive

import "github.com/serbench/serbench/codec"

// HyperpbID is the ID of NewHyperpbCodec's codec.
const HyperpbID = "hyperpb/derived"

const hyperpbModule = "buf.build/go/hyperpb"

func hyperpbInfo() codec.Info {
	return codec.Info{ID: HyperpbID, Module: hyperpbModule, Version: codec.ModuleVersion(hyperpbModule),
		API:    codec.APITyped,
		Unsafe: true, // hyperpb imports package unsafe
		Format: "Protocol Buffers", Kind: codec.Reflect, Binary: true,
		Time: "ns, google.protobuf.Timestamp: instant kept, UTC forced (offset and zone name lost)",
		Options: "schema derived from the Go type at Bind (package derive), compiled by hyperpb.CompileMessageDescriptor; " +
			"unmarshal: Message.Unmarshal with default options; marshal: proto.Marshal over the parsed message (hyperpb only parses); " +
			"convert: the Go value to dynamicpb, its bytes and their parse, and the fields read back"}
}
