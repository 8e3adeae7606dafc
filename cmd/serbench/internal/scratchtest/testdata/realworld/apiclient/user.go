// Package apiclient stands for a public API's Go client: response types
// whose every field is a pointer, so that "absent" and "zero" differ, and
// times wrapped in a type of the client's own.
package apiclient

import "time"

// Timestamp wraps time.Time, as API clients do to give it their own JSON
// methods.
type Timestamp struct {
	time.Time
}

// User is a user profile as an API returns it.
type User struct {
	Login       *string    `json:"login,omitempty"`
	ID          *int64     `json:"id,omitempty"`
	NodeID      *string    `json:"node_id,omitempty"`
	AvatarURL   *string    `json:"avatar_url,omitempty"`
	Name        *string    `json:"name,omitempty"`
	Company     *string    `json:"company,omitempty"`
	Blog        *string    `json:"blog,omitempty"`
	Location    *string    `json:"location,omitempty"`
	Email       *string    `json:"email,omitempty"`
	Hireable    *bool      `json:"hireable,omitempty"`
	Bio         *string    `json:"bio,omitempty"`
	PublicRepos *int       `json:"public_repos,omitempty"`
	Followers   *int       `json:"followers,omitempty"`
	Following   *int       `json:"following,omitempty"`
	CreatedAt   *Timestamp `json:"created_at,omitempty"`
	UpdatedAt   *Timestamp `json:"updated_at,omitempty"`
	SiteAdmin   *bool      `json:"site_admin,omitempty"`
	Plan        *Plan      `json:"plan,omitempty"`
}

// Plan is a user's billing plan.
type Plan struct {
	Name          *string `json:"name,omitempty"`
	Space         *int    `json:"space,omitempty"`
	Collaborators *int    `json:"collaborators,omitempty"`
	PrivateRepos  *int64  `json:"private_repos,omitempty"`
}
