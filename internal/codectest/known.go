package codectest

import "testing"

// KnownFailure is a (codec, scenario) cell that is known not to round-trip:
// the round trip or the comparison fails with Err, exactly, for the reason
// Why. Tests that round-trip every codec on every scenario keep a table of
// them, so that the table stays true: a listed cell that starts to
// round-trip, or fails differently, fails the test.
type KnownFailure struct {
	Codec, Scenario string
	// Err is the error the round trip or the comparison returns, exactly.
	Err string
	// Why explains it.
	Why string
}

// FindKnown returns the entry of list for the cell (codecID, scenarioID),
// or nil.
func FindKnown(list []KnownFailure, codecID, scenarioID string) *KnownFailure {
	for i := range list {
		if list[i].Codec == codecID && list[i].Scenario == scenarioID {
			return &list[i]
		}
	}
	return nil
}

// CheckKnown fails t when err, the outcome of a cell's round trip and
// comparison, is not what k says: no error when k is nil, k.Err exactly
// otherwise. A known failure that happens is logged with its reason.
func CheckKnown(t testing.TB, k *KnownFailure, err error) {
	t.Helper()
	switch {
	case k == nil && err != nil:
		t.Fatal(err)
	case k != nil && err == nil:
		t.Fatalf("now round-trips: remove the known failure %q", k.Err)
	case k != nil && err.Error() != k.Err:
		t.Fatalf("known failure changed:\n got  %v\n want %s", err, k.Err)
	case k != nil:
		t.Logf("known failure: %v (%s)", err, k.Why)
	}
}

// Known returns the KnownFailure of the cell (codecID, scenarioID).
func Known(codecID, scenarioID, err, why string) KnownFailure {
	return KnownFailure{Codec: codecID, Scenario: scenarioID, Err: err, Why: why}
}
