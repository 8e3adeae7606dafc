//go:build !goexperiment.jsonv2

package bench

const jsonEngine = JSONEngineLegacy
