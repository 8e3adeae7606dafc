package corpus

// Canada is canada_geometry.json: a GeoJSON FeatureCollection (RFC 7946)
// whose one Feature is Canada's border as a Polygon of many rings. Nearly all
// of the document is coordinates, so it measures float64 encoding and
// parsing.
type Canada struct {
	Type     string          `json:"type"` // "FeatureCollection"
	Features []CanadaFeature `json:"features"`
}

// CanadaFeature is one GeoJSON Feature.
type CanadaFeature struct {
	Type       string           `json:"type"` // "Feature"
	Properties CanadaProperties `json:"properties"`
	Geometry   CanadaGeometry   `json:"geometry"`
}

// CanadaProperties holds the Feature's properties.
type CanadaProperties struct {
	Name string `json:"name"` // "Canada"
}

// CanadaGeometry is a GeoJSON Polygon: a list of linear rings, each a list
// of [longitude, latitude] positions in degrees.
type CanadaGeometry struct {
	Type        string         `json:"type"` // "Polygon"
	Coordinates [][][2]float64 `json:"coordinates"`
}
