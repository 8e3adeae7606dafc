module github.com/serbench/serbench

go 1.26.0

toolchain go1.27.4

require (
	buf.build/go/hyperpb v0.1.3
	capnproto.org/go/capnp/v3 v3.1.0-alpha.2
	github.com/200sc/bebop v0.6.2
	github.com/alecthomas/binary v0.0.0-20221018225505-74871811ee56
	github.com/apache/thrift v0.17.0
	github.com/bytedance/sonic v1.15.5
	github.com/chromedp/chromedp v0.23.0
	github.com/deneonet/benc v1.1.8
	github.com/fxamacker/cbor/v2 v2.10.0
	github.com/gin-gonic/gin v1.12.0
	github.com/go-json-experiment/json v0.0.0-20260820222146-c27c302e5fc3
	github.com/goccy/go-json v0.12.0
	github.com/google/pprof v0.0.0-20260906184651-6331bc6350fe
	github.com/google/renameio/v2 v2.0.2
	github.com/hprose/hprose-golang/v3 v3.0.10
	github.com/ikkerens/ikeapack v1.5.1
	github.com/json-iterator/go v1.1.12
	github.com/labstack/echo/v4 v4.16.0
	github.com/mojura/enkodo v0.5.6
	github.com/mus-format/mus-go v0.7.2
	github.com/mus-format/musgen-go v0.2.3
	github.com/pierrec/lz4/v4 v4.1.33
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/segmentio/encoding v0.5.4
	github.com/shamaton/msgpackgen v0.3.0
	github.com/tsenart/vegeta/v12 v12.13.0
	github.com/twmb/avro v1.9.1
	github.com/vmihailenco/msgpack/v5 v5.4.1
	go.dedis.ch/protobuf v1.0.11
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
)

require (
	github.com/andot/complexconv v1.0.0 // indirect
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/stretchr/testify v1.11.1 // indirect
	github.com/timandy/routine v1.1.5 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

require (
	github.com/DataDog/zstd v1.5.2 // indirect
	github.com/Sereal/Sereal/Go/sereal v0.0.0-20231009093132-b9187f1a92c6
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/colega/zeropool v0.0.0-20230505084239-6fb4a4f75381 // indirect
	github.com/dave/jennifer v1.4.1 // indirect
	github.com/davecgh/go-xdr v0.0.0-20161123171359-e6a2ba005892
	github.com/gabriel-vasile/mimetype v1.4.12 // indirect
	github.com/gin-contrib/sse v1.1.0 // indirect
	github.com/go-playground/locales v0.14.1 // indirect
	github.com/go-playground/universal-translator v0.18.1 // indirect
	github.com/go-playground/validator/v10 v10.30.1 // indirect
	github.com/go-viper/mapstructure/v2 v2.4.0 // indirect
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/golang/snappy v1.0.0 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/hamba/avro/v2 v2.31.0
	github.com/influxdata/tdigest v0.0.1 // indirect
	github.com/kelindar/binary v1.0.19
	github.com/labstack/gommon v0.5.0 // indirect
	github.com/leodido/go-urn v1.4.0 // indirect
	github.com/linkedin/goavro/v2 v2.15.0
	github.com/mattn/go-colorable v0.1.15 // indirect
	github.com/mattn/go-isatty v0.0.22 // indirect
	github.com/minio/simdjson-go v0.4.5
	github.com/mus-format/common-go v0.0.0-20251026152644-9f5ac6728d8a // indirect
	github.com/niubaoshu/gotiny v0.0.3
	github.com/pelletier/go-toml/v2 v2.2.4 // indirect
	github.com/quic-go/qpack v0.6.0 // indirect
	github.com/quic-go/quic-go v0.59.0 // indirect
	github.com/rs/dnscache v0.0.0-20230804202142-fc85eb664529 // indirect
	github.com/shamaton/msgpack/v2 v2.1.0 // indirect
	github.com/shamaton/msgpack/v3 v3.1.0
	github.com/ugorji/go/codec v1.3.2
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	github.com/valyala/fastjson v1.6.4
	github.com/valyala/fasttemplate v1.2.2 // indirect
	go.mongodb.org/mongo-driver/v2 v2.10.0
	golang.org/x/crypto v0.57.0 // indirect
	golang.org/x/exp v0.0.0-20260824195058-e88cd73687aa // indirect
	golang.org/x/net v0.59.0
	golang.org/x/sync v0.23.0 // indirect
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/bytedance/gopkg v0.1.3 // indirect
	github.com/bytedance/sonic/loader v0.5.3 // indirect
	github.com/cloudwego/base64x v0.1.6 // indirect
	github.com/gogo/protobuf v1.3.2
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/google/flatbuffers v2.0.8+incompatible
	github.com/gorilla/websocket v1.5.3
	github.com/josharian/intern v1.0.0 // indirect
	github.com/klauspost/compress v1.20.3
	github.com/klauspost/cpuid/v2 v2.3.0 // indirect
	github.com/mailru/easyjson v0.9.2
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/philhofer/fwd v1.2.0 // indirect
	github.com/planetscale/vtprotobuf v0.6.0
	github.com/pquerna/ffjson v0.0.0-20190930134022-aa0246cd15f7
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/tinylib/msgp v1.6.5
	github.com/twitchyliquid64/golang-asm v0.15.1 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/arch v0.22.0 // indirect
	golang.org/x/image v0.46.0 // indirect
	golang.org/x/mod v0.41.0
	golang.org/x/text v0.42.0 // indirect
	golang.org/x/tools v0.49.0 // indirect
	gonum.org/v1/plot v0.17.0
	google.golang.org/protobuf v1.36.12
)

tool (
	capnproto.org/go/capnp/v3/capnpc-go
	github.com/200sc/bebop/main/bebopc-go
	github.com/deneonet/benc/cmd/bencgen
	github.com/gogo/protobuf/protoc-gen-gogofaster
	github.com/mailru/easyjson/easyjson
	github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto
	github.com/pquerna/ffjson
	github.com/shamaton/msgpackgen
	github.com/tinylib/msgp
	google.golang.org/protobuf/cmd/protoc-gen-go
)
