package wire

import (
	"github.com/serbench/serbench/scenario"
)

// Encoders and decoders for the seed scenario types, written by hand: fields
// in declaration order, layouts as in the package doc. The Append functions
// write a whole message (version byte first); the Unmarshal methods read one
// and fail on trailing bytes. Unmarshal overwrites every field of v.

// Smallest encodings of one element, for Decoder.Header.
const (
	minEventItem = 1 + 1 + 1 + 8 + 1 // SKU, Name, Quantity, Price, Currency
	minLabel     = 1 + 4 + 16        // Name, Confidence, Box
	minAddress   = 4 + 1             // four strings, IsBilling
)

// AppendSSEEvent appends the message encoding of v.
func AppendSSEEvent(dst []byte, v *scenario.SSEEvent) []byte { return appendSSEEvent(dst, v, nil) }

// appendSSEEvent is AppendSSEEvent with an optional map key cache.
func appendSSEEvent(dst []byte, v *scenario.SSEEvent, kc *keyCache) []byte {
	dst = append(dst, Version)
	dst = AppendString(dst, v.ID)
	dst = AppendString(dst, v.Event)
	dst = AppendString(dst, v.Data)
	dst = AppendBool(dst, v.Replay)
	return appendStringMap(dst, v.Meta, kc)
}

// sseEvent decodes a message into v, reusing v's slices and maps.
func (d *Decoder) sseEvent(v *scenario.SSEEvent) error {
	d.Version()
	v.ID = d.String()
	v.Event = d.String()
	v.Data = d.String()
	v.Replay = d.Bool()
	v.Meta = d.stringMapInto(v.Meta)
	return d.Finish()
}

// AppendUserEvent appends the message encoding of v.
func AppendUserEvent(dst []byte, v *scenario.UserEvent) []byte { return appendUserEvent(dst, v, nil) }

// appendUserEvent is AppendUserEvent with an optional map key cache.
func appendUserEvent(dst []byte, v *scenario.UserEvent, kc *keyCache) []byte {
	dst = append(dst, Version)
	dst = AppendUvarint(dst, v.EventID)
	dst = AppendUvarint(dst, v.UserID)
	dst = AppendString(dst, v.SessionID)
	dst = AppendString(dst, v.Type)
	dst = AppendTime(dst, v.OccurredAt)
	dst = AppendString(dst, v.Source.App)
	dst = AppendString(dst, v.Source.Version)
	dst = AppendString(dst, v.Source.OS)
	dst = AppendString(dst, v.Source.IP)
	dst = AppendString(dst, v.Source.Locale)
	dst = AppendStrings(dst, v.Tags)
	dst = AppendHeader(dst, len(v.Items), v.Items == nil)
	for i := range v.Items {
		it := &v.Items[i]
		dst = AppendString(dst, it.SKU)
		dst = AppendString(dst, it.Name)
		dst = AppendVarint(dst, int64(it.Quantity))
		dst = AppendFloat64(dst, it.Price)
		dst = AppendString(dst, it.Currency)
	}
	dst = appendStringMapMap(dst, v.Attributes, kc)
	dst = AppendHeader(dst, len(v.Scores), v.Scores == nil)
	for _, f := range v.Scores {
		dst = AppendFloat64(dst, f)
	}
	dst = AppendHeader(dst, len(v.Flags), v.Flags == nil)
	for _, b := range v.Flags {
		dst = AppendBool(dst, b)
	}
	return dst
}

// userEvent decodes a message into v, reusing v's slices and maps.
func (d *Decoder) userEvent(v *scenario.UserEvent) error {
	d.Version()
	v.EventID = d.Uvarint()
	v.UserID = d.Uvarint()
	v.SessionID = d.String()
	v.Type = d.String()
	v.OccurredAt = d.Time()
	if d.Enter() {
		v.Source.App = d.String()
		v.Source.Version = d.String()
		v.Source.OS = d.String()
		v.Source.IP = d.String()
		v.Source.Locale = d.String()
		d.Leave()
	}
	v.Tags = d.stringsInto(v.Tags)
	if n, isNil := d.Header(minEventItem); isNil {
		v.Items = nil
	} else if d.enterN(2) {
		v.Items = resize(v.Items, n)
		for i := range v.Items {
			it := &v.Items[i]
			it.SKU = d.String()
			it.Name = d.String()
			it.Quantity = d.Int32()
			it.Price = d.Float64()
			it.Currency = d.String()
		}
		d.leaveN(2)
	}
	v.Attributes = d.stringMapMapInto(v.Attributes)
	if n, isNil := d.Header(8); isNil {
		v.Scores = nil
	} else if d.Enter() {
		v.Scores = resize(v.Scores, n)
		for i := range v.Scores {
			v.Scores[i] = d.Float64()
		}
		d.Leave()
	}
	if n, isNil := d.Header(1); isNil {
		v.Flags = nil
	} else if d.Enter() {
		v.Flags = resize(v.Flags, n)
		for i := range v.Flags {
			v.Flags[i] = d.Bool()
		}
		d.Leave()
	}
	return d.Finish()
}

// AppendWSMessage appends the message encoding of v.
func AppendWSMessage(dst []byte, v *scenario.WSMessage) []byte {
	dst = append(dst, Version)
	dst = AppendString(dst, v.Uid)
	dst = AppendString(dst, v.Content)
	return AppendVarint(dst, v.Timestamp)
}

// wsMessage decodes a message into v, reusing v's slices and maps.
func (d *Decoder) wsMessage(v *scenario.WSMessage) error {
	d.Version()
	v.Uid = d.String()
	v.Content = d.String()
	v.Timestamp = d.Varint()
	return d.Finish()
}

// AppendAnnotation appends the message encoding of v.
func AppendAnnotation(dst []byte, v *scenario.Annotation) []byte {
	dst = append(dst, Version)
	dst = AppendString(dst, v.ID)
	dst = AppendHeader(dst, len(v.Labels), v.Labels == nil)
	for i := range v.Labels {
		l := &v.Labels[i]
		dst = AppendString(dst, l.Name)
		dst = AppendFloat32(dst, l.Confidence)
		dst = AppendFloat32(dst, l.Box.X)
		dst = AppendFloat32(dst, l.Box.Y)
		dst = AppendFloat32(dst, l.Box.W)
		dst = AppendFloat32(dst, l.Box.H)
	}
	dst = AppendString(dst, v.Annotator)
	return AppendVarint(dst, v.Timestamp)
}

// annotation decodes a message into v, reusing v's slices and maps.
func (d *Decoder) annotation(v *scenario.Annotation) error {
	d.Version()
	v.ID = d.String()
	if n, isNil := d.Header(minLabel); isNil {
		v.Labels = nil
	} else if d.enterN(3) { // the list, each Label, its Box
		v.Labels = resize(v.Labels, n)
		for i := range v.Labels {
			l := &v.Labels[i]
			l.Name = d.String()
			l.Confidence = d.Float32()
			l.Box.X = d.Float32()
			l.Box.Y = d.Float32()
			l.Box.W = d.Float32()
			l.Box.H = d.Float32()
		}
		d.leaveN(3)
	}
	v.Annotator = d.String()
	v.Timestamp = d.Varint()
	return d.Finish()
}

// AppendUserProfile appends the message encoding of v.
func AppendUserProfile(dst []byte, v *scenario.UserProfile) []byte {
	return appendUserProfile(dst, v, nil)
}

// appendUserProfile is AppendUserProfile with an optional map key cache.
func appendUserProfile(dst []byte, v *scenario.UserProfile, kc *keyCache) []byte {
	dst = append(dst, Version)
	dst = AppendVarint(dst, int64(v.ID))
	dst = AppendString(dst, v.Name)
	dst = AppendString(dst, v.Email)
	dst = AppendHeader(dst, len(v.Addresses), v.Addresses == nil)
	for i := range v.Addresses {
		a := &v.Addresses[i]
		dst = AppendString(dst, a.Street)
		dst = AppendString(dst, a.City)
		dst = AppendString(dst, a.State)
		dst = AppendString(dst, a.ZipCode)
		dst = AppendBool(dst, a.IsBilling)
	}
	dst = AppendBool(dst, v.IsActive)
	dst = AppendTime(dst, v.CreatedAt)
	return appendStringMap(dst, v.Metadata, kc)
}

// userProfile decodes a message into v, reusing v's slices and maps.
func (d *Decoder) userProfile(v *scenario.UserProfile) error {
	d.Version()
	v.ID = d.Int()
	v.Name = d.String()
	v.Email = d.String()
	if n, isNil := d.Header(minAddress); isNil {
		v.Addresses = nil
	} else if d.enterN(2) {
		v.Addresses = resize(v.Addresses, n)
		for i := range v.Addresses {
			a := &v.Addresses[i]
			a.Street = d.String()
			a.City = d.String()
			a.State = d.String()
			a.ZipCode = d.String()
			a.IsBilling = d.Bool()
		}
		d.leaveN(2)
	}
	v.IsActive = d.Bool()
	v.CreatedAt = d.Time()
	v.Metadata = d.stringMapInto(v.Metadata)
	return d.Finish()
}
