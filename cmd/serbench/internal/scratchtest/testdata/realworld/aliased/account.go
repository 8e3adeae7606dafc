// Package aliased names another module's type with a local alias:
// serbench init -type Account.
package aliased

import "example.com/apiclient"

// Account is apiclient's account under a local name.
type Account = apiclient.Account
