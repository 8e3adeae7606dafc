package corpus

// CitmCatalog is citm_catalog.json: the catalog of an event-ticketing system
// (CITM), with names keyed by numeric ID (as JSON object keys), events keyed
// by ID, and performances with their prices and seat categories. All numbers
// are integers.
type CitmCatalog struct {
	AreaNames                map[string]string    `json:"areaNames"`
	AudienceSubCategoryNames map[string]string    `json:"audienceSubCategoryNames"`
	BlockNames               map[string]string    `json:"blockNames"` // empty in the document
	Events                   map[string]CitmEvent `json:"events"`
	Performances             []CitmPerformance    `json:"performances"`
	SeatCategoryNames        map[string]string    `json:"seatCategoryNames"`
	SubTopicNames            map[string]string    `json:"subTopicNames"`
	SubjectNames             map[string]string    `json:"subjectNames"` // empty in the document
	TopicNames               map[string]string    `json:"topicNames"`
	TopicSubTopics           map[string][]int64   `json:"topicSubTopics"`
	VenueNames               map[string]string    `json:"venueNames"` // keyed by venue code
}

// CitmEvent is one event of the catalog. The pointer fields are null in the
// whole document; they are typed as the strings their names suggest.
type CitmEvent struct {
	Description *string `json:"description"`
	ID          int64   `json:"id"`
	Logo        *string `json:"logo"` // image path, or null
	Name        string  `json:"name"`
	SubTopicIDs []int64 `json:"subTopicIds"`
	SubjectCode *string `json:"subjectCode"`
	Subtitle    *string `json:"subtitle"`
	TopicIDs    []int64 `json:"topicIds"`
}

// CitmPerformance is one performance of an event.
type CitmPerformance struct {
	EventID        int64              `json:"eventId"`
	ID             int64              `json:"id"`
	Logo           *string            `json:"logo"`
	Name           *string            `json:"name"` // null in the whole document
	Prices         []CitmPrice        `json:"prices"`
	SeatCategories []CitmSeatCategory `json:"seatCategories"`
	SeatMapImage   *string            `json:"seatMapImage"` // null in the whole document
	Start          int64              `json:"start"`        // Unix milliseconds
	VenueCode      string             `json:"venueCode"`
}

// CitmPrice is the price of one seat category for one audience.
type CitmPrice struct {
	Amount                int64 `json:"amount"`
	AudienceSubCategoryID int64 `json:"audienceSubCategoryId"`
	SeatCategoryID        int64 `json:"seatCategoryId"`
}

// CitmSeatCategory lists the areas of one seat category.
type CitmSeatCategory struct {
	Areas          []CitmArea `json:"areas"`
	SeatCategoryID int64      `json:"seatCategoryId"`
}

// CitmArea is one area; BlockIDs is empty in the whole document.
type CitmArea struct {
	AreaID   int64   `json:"areaId"`
	BlockIDs []int64 `json:"blockIds"`
}
