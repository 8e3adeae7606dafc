//go:build !goexperiment.jsonv2

package env

const jsonEngine = JSONEngineLegacy
