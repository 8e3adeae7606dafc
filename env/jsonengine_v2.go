//go:build goexperiment.jsonv2

package env

const jsonEngine = JSONEngineV2
