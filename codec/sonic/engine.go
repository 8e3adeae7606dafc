package sonic

import (
	"os"
	"runtime"
)

// engine names the implementation sonic runs on this platform, as sonic
// v1.15.5's source selects it (Info.Engine):
//   - amd64: encoder and decoder compiled just in time, unless the
//     environment asks for the others (SONIC_ENCODER_USE_VM set:
//     internal/encoder/vars; SONIC_USE_OPTDEC=1: internal/envs);
//   - arm64: no JIT: the encoder's interpreter ("vm",
//     internal/encoder/pools_compt.go, built for !amd64) and the "optdec"
//     decoder (internal/decoder/api/decoder_arm64.go);
//   - any other platform, and from go1.28: encoding/json (compat.go).
func engine() string {
	if !jit {
		return "encoding/json fallback"
	}
	enc, dec := "vm", "optdec"
	if runtime.GOARCH == "amd64" {
		enc, dec = "jit", "jit"
		if os.Getenv("SONIC_ENCODER_USE_VM") != "" {
			enc = "vm"
		}
		if os.Getenv("SONIC_USE_OPTDEC") == "1" {
			dec = "optdec"
		}
	}
	return "encoder " + enc + ", decoder " + dec
}
