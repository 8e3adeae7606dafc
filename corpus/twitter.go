package corpus

// TwitterSearch is twitter_status.json: one page of a Twitter API v1.1
// search (GET search/tweets) with 100 statuses, mostly Japanese text, many
// of them retweets that embed the original status.
//
// The numeric IDs in the document were written by a JavaScript program, so
// an ID such as 505874924095815700 is its *_str twin (505874924095815681)
// rounded to a float64; the int64 fields hold the document's digits exactly.
type TwitterSearch struct {
	Statuses       []TwitterStatus       `json:"statuses"`
	SearchMetadata TwitterSearchMetadata `json:"search_metadata"`
}

// TwitterStatus is one tweet.
type TwitterStatus struct {
	Metadata             TwitterStatusMetadata `json:"metadata"`
	CreatedAt            string                `json:"created_at"` // "Sun Aug 31 00:29:15 +0000 2014"
	ID                   int64                 `json:"id"`
	IDStr                string                `json:"id_str"`
	Text                 string                `json:"text"`
	Source               string                `json:"source"` // an HTML link to the client
	Truncated            bool                  `json:"truncated"`
	InReplyToStatusID    *int64                `json:"in_reply_to_status_id"`
	InReplyToStatusIDStr *string               `json:"in_reply_to_status_id_str"`
	InReplyToUserID      *int64                `json:"in_reply_to_user_id"`
	InReplyToUserIDStr   *string               `json:"in_reply_to_user_id_str"`
	InReplyToScreenName  *string               `json:"in_reply_to_screen_name"`
	User                 TwitterUser           `json:"user"`
	// Geo, Coordinates, Place and Contributors are null in the whole
	// document; their types follow the v1.1 API's shapes.
	Geo             *TwitterPoint   `json:"geo"`
	Coordinates     *TwitterPoint   `json:"coordinates"`
	Place           *TwitterPlace   `json:"place"`
	Contributors    []int64         `json:"contributors"`
	RetweetedStatus *TwitterStatus  `json:"retweeted_status,omitempty"` // only on retweets
	RetweetCount    int64           `json:"retweet_count"`
	FavoriteCount   int64           `json:"favorite_count"`
	Entities        TwitterEntities `json:"entities"`
	Favorited       bool            `json:"favorited"`
	Retweeted       bool            `json:"retweeted"`
	// PossiblySensitive is absent from most statuses and false in some.
	PossiblySensitive *bool  `json:"possibly_sensitive,omitempty"`
	Lang              string `json:"lang"`
}

// TwitterStatusMetadata says why the search returned a status.
type TwitterStatusMetadata struct {
	ResultType      string `json:"result_type"`       // "recent"
	ISOLanguageCode string `json:"iso_language_code"` // "ja"
}

// TwitterPoint is a GeoJSON-like point: [latitude, longitude] for geo,
// [longitude, latitude] for coordinates.
type TwitterPoint struct {
	Type        string    `json:"type"`
	Coordinates []float64 `json:"coordinates"`
}

// TwitterPlace is a named place.
type TwitterPlace struct {
	ID          string `json:"id"`
	URL         string `json:"url"`
	PlaceType   string `json:"place_type"`
	Name        string `json:"name"`
	FullName    string `json:"full_name"`
	CountryCode string `json:"country_code"`
	Country     string `json:"country"`
}

// TwitterUser is the author of a status.
type TwitterUser struct {
	ID                             int64               `json:"id"`
	IDStr                          string              `json:"id_str"`
	Name                           string              `json:"name"`
	ScreenName                     string              `json:"screen_name"`
	Location                       string              `json:"location"`
	Description                    string              `json:"description"`
	URL                            *string             `json:"url"`
	Entities                       TwitterUserEntities `json:"entities"`
	Protected                      bool                `json:"protected"`
	FollowersCount                 int64               `json:"followers_count"`
	FriendsCount                   int64               `json:"friends_count"`
	ListedCount                    int64               `json:"listed_count"`
	CreatedAt                      string              `json:"created_at"`
	FavouritesCount                int64               `json:"favourites_count"`
	UTCOffset                      *int64              `json:"utc_offset"` // seconds east of UTC, or null
	TimeZone                       *string             `json:"time_zone"`
	GeoEnabled                     bool                `json:"geo_enabled"`
	Verified                       bool                `json:"verified"`
	StatusesCount                  int64               `json:"statuses_count"`
	Lang                           string              `json:"lang"`
	ContributorsEnabled            bool                `json:"contributors_enabled"`
	IsTranslator                   bool                `json:"is_translator"`
	IsTranslationEnabled           bool                `json:"is_translation_enabled"`
	ProfileBackgroundColor         string              `json:"profile_background_color"` // hex RGB without '#'
	ProfileBackgroundImageURL      string              `json:"profile_background_image_url"`
	ProfileBackgroundImageURLHTTPS string              `json:"profile_background_image_url_https"`
	ProfileBackgroundTile          bool                `json:"profile_background_tile"`
	ProfileImageURL                string              `json:"profile_image_url"`
	ProfileImageURLHTTPS           string              `json:"profile_image_url_https"`
	ProfileBannerURL               string              `json:"profile_banner_url,omitempty"` // absent for some users, never empty
	ProfileLinkColor               string              `json:"profile_link_color"`
	ProfileSidebarBorderColor      string              `json:"profile_sidebar_border_color"`
	ProfileSidebarFillColor        string              `json:"profile_sidebar_fill_color"`
	ProfileTextColor               string              `json:"profile_text_color"`
	ProfileUseBackgroundImage      bool                `json:"profile_use_background_image"`
	DefaultProfile                 bool                `json:"default_profile"`
	DefaultProfileImage            bool                `json:"default_profile_image"`
	Following                      bool                `json:"following"`
	FollowRequestSent              bool                `json:"follow_request_sent"`
	Notifications                  bool                `json:"notifications"`
}

// TwitterUserEntities holds the links found in a user's profile.
type TwitterUserEntities struct {
	Description TwitterURLs  `json:"description"`
	URL         *TwitterURLs `json:"url,omitempty"` // only for users with a profile URL
}

// TwitterURLs is a list of links.
type TwitterURLs struct {
	URLs []TwitterURL `json:"urls"`
}

// TwitterURL is a t.co link; Indices are the [start, end) rune offsets of
// the link in the text.
type TwitterURL struct {
	URL         string  `json:"url"`
	ExpandedURL string  `json:"expanded_url"`
	DisplayURL  string  `json:"display_url"`
	Indices     []int64 `json:"indices"`
}

// TwitterEntities holds what Twitter recognised in a status's text.
type TwitterEntities struct {
	Hashtags     []TwitterHashtag     `json:"hashtags"`
	Symbols      []TwitterHashtag     `json:"symbols"` // cashtags; empty in the whole document
	URLs         []TwitterURL         `json:"urls"`
	UserMentions []TwitterUserMention `json:"user_mentions"`
	Media        []TwitterMedia       `json:"media,omitempty"` // only on statuses with pictures
}

// TwitterHashtag is a #hashtag (or a $cashtag in Symbols) without its sign.
type TwitterHashtag struct {
	Text    string  `json:"text"`
	Indices []int64 `json:"indices"`
}

// TwitterUserMention is an @mention.
type TwitterUserMention struct {
	ScreenName string  `json:"screen_name"`
	Name       string  `json:"name"`
	ID         int64   `json:"id"`
	IDStr      string  `json:"id_str"`
	Indices    []int64 `json:"indices"`
}

// TwitterMedia is an attached picture.
type TwitterMedia struct {
	ID            int64             `json:"id"`
	IDStr         string            `json:"id_str"`
	Indices       []int64           `json:"indices"`
	MediaURL      string            `json:"media_url"`
	MediaURLHTTPS string            `json:"media_url_https"`
	URL           string            `json:"url"`
	DisplayURL    string            `json:"display_url"`
	ExpandedURL   string            `json:"expanded_url"`
	Type          string            `json:"type"` // "photo"
	Sizes         TwitterMediaSizes `json:"sizes"`
	// SourceStatusID and SourceStatusIDStr are present when the picture was
	// first posted in another status.
	SourceStatusID    int64  `json:"source_status_id,omitempty"`
	SourceStatusIDStr string `json:"source_status_id_str,omitempty"`
}

// TwitterMediaSizes lists the sizes a picture is served in.
type TwitterMediaSizes struct {
	Medium TwitterMediaSize `json:"medium"`
	Small  TwitterMediaSize `json:"small"`
	Thumb  TwitterMediaSize `json:"thumb"`
	Large  TwitterMediaSize `json:"large"`
}

// TwitterMediaSize is one size of a picture, in pixels.
type TwitterMediaSize struct {
	W      int64  `json:"w"`
	H      int64  `json:"h"`
	Resize string `json:"resize"` // "fit" or "crop"
}

// TwitterSearchMetadata describes the search.
type TwitterSearchMetadata struct {
	CompletedIn float64 `json:"completed_in"` // seconds
	MaxID       int64   `json:"max_id"`
	MaxIDStr    string  `json:"max_id_str"`
	NextResults string  `json:"next_results"` // query string of the next page
	Query       string  `json:"query"`        // URL-encoded
	RefreshURL  string  `json:"refresh_url"`
	Count       int64   `json:"count"`
	SinceID     int64   `json:"since_id"`
	SinceIDStr  string  `json:"since_id_str"`
}
