package apiclient

// Repository is a repository as an API returns it, with its owner.
type Repository struct {
	ID            *int64            `json:"id,omitempty"`
	Name          *string           `json:"name,omitempty"`
	FullName      *string           `json:"full_name,omitempty"`
	Owner         *User             `json:"owner,omitempty"`
	Private       *bool             `json:"private,omitempty"`
	Description   *string           `json:"description,omitempty"`
	Topics        []string          `json:"topics,omitempty"`
	StarsCount    *int              `json:"stargazers_count,omitempty"`
	DefaultBranch *string           `json:"default_branch,omitempty"`
	License       *License          `json:"license,omitempty"`
	PushedAt      *Timestamp        `json:"pushed_at,omitempty"`
	Permissions   map[string]bool   `json:"permissions,omitempty"`
	Languages     map[string]int    `json:"languages,omitempty"`
	Labels        []*Label          `json:"labels,omitempty"`
	Extra         map[string]string `json:"extra,omitempty"`
}

// License is a repository's license.
type License struct {
	Key       *string  `json:"key,omitempty"`
	Name      *string  `json:"name,omitempty"`
	SPDXID    *string  `json:"spdx_id,omitempty"`
	Permitted []string `json:"permitted,omitempty"`
	Featured  bool     `json:"featured"`
}

// Label is an issue label of a repository.
type Label struct {
	Name  *string `json:"name,omitempty"`
	Color *string `json:"color,omitempty"`
}

// Account is a billing account, a plain struct of values.
type Account struct {
	Number   string            `json:"number"`
	Owner    string            `json:"owner"`
	Balance  float64           `json:"balance"`
	Currency string            `json:"currency"`
	Opened   Timestamp         `json:"opened"`
	Limits   map[string]int64  `json:"limits"`
	Tags     []string          `json:"tags"`
	Meta     map[string]string `json:"meta"`
}
