// Package apiuser benchmarks a type of another module that it does not
// import: serbench init -type example.com/apiclient.User.
package apiuser
