package probe

import (
	"math"
	"time"

	"github.com/serbench/serbench/scenario"
)

// The seeds below carry probe values in seed scenario fields of the same
// Go type, so that codecs bound to the seed types (codegen, wire) are
// probed through their own schemas. A probe with no field of its type in
// any seed has no Seed and stays n/a for those codecs.

func userEventSeed(field string, set func(*scenario.UserEvent), get func(*scenario.UserEvent) any) *Seed {
	return &Seed{Field: "user-event ." + field,
		New: func() any { e := scenario.NewUserEvent(); set(e); return e },
		Get: func(v any) any { return get(v.(*scenario.UserEvent)) }}
}

func scoresSeed(xs ...float64) *Seed {
	return userEventSeed("Scores", func(e *scenario.UserEvent) { e.Scores = append([]float64(nil), xs...) },
		func(e *scenario.UserEvent) any { return e.Scores })
}

func idsSeed(id uint64) *Seed {
	return userEventSeed("EventID, .UserID", func(e *scenario.UserEvent) { e.EventID, e.UserID = id, id },
		func(e *scenario.UserEvent) any { return [2]uint64{e.EventID, e.UserID} })
}

func tagsSeed(tags []string) *Seed {
	return userEventSeed("Tags", func(e *scenario.UserEvent) { e.Tags = tags },
		func(e *scenario.UserEvent) any { return e.Tags })
}

func profileSeed(field string, set func(*scenario.UserProfile), get func(*scenario.UserProfile) any) *Seed {
	return &Seed{Field: "user-profile ." + field,
		New: func() any { p := scenario.NewUserProfile(); set(p); return p },
		Get: func(v any) any { return get(v.(*scenario.UserProfile)) }}
}

func createdAtSeed(t func() time.Time) *Seed {
	return profileSeed("CreatedAt", func(p *scenario.UserProfile) { p.CreatedAt = t() },
		func(p *scenario.UserProfile) any { return p.CreatedAt })
}

func metadataSeed(m func() map[string]string) *Seed {
	return profileSeed("Metadata", func(p *scenario.UserProfile) { p.Metadata = m() },
		func(p *scenario.UserProfile) any { return p.Metadata })
}

func contentSeed(s string) *Seed {
	return &Seed{Field: "ws-message .Content",
		New: func() any { m := scenario.NewWSMessage(); m.Content = s; return m },
		Get: func(v any) any { return v.(*scenario.WSMessage).Content }}
}

func float32Seed() *Seed {
	return &Seed{Field: "annotation .Labels[0].Confidence, .Box.X, .Box.Y",
		New: func() any {
			a := scenario.NewAnnotation()
			l := &a.Labels[0]
			l.Confidence, l.Box.X, l.Box.Y = 0.1, math.MaxFloat32, math.SmallestNonzeroFloat32
			return a
		},
		Get: func(v any) any {
			a := v.(*scenario.Annotation)
			if len(a.Labels) == 0 {
				return "no labels"
			}
			l := a.Labels[0]
			return [3]float32{l.Confidence, l.Box.X, l.Box.Y}
		}}
}
