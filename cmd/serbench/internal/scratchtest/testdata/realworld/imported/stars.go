// Package imported uses apiclient's types: serbench init -type
// apiclient.Repository names one through the package's import.
package imported

import "example.com/apiclient"

// Stars is r's star count, 0 when the API left it out.
func Stars(r *apiclient.Repository) int {
	if r.StarsCount == nil {
		return 0
	}
	return *r.StarsCount
}
