package bench

import (
	"testing"
)

func TestCheckCoreSharingRounds(t *testing.T) {
	c, err := CheckCoreSharing()
	if err != nil {
		t.Skipf("core sharing cannot be checked here: %v", err)
	}
	if len(c.RoundSlowdowns) != coreRounds {
		t.Fatalf("%d round slowdowns, want %d", len(c.RoundSlowdowns), coreRounds)
	}
	for i, r := range c.RoundSlowdowns {
		if !(r > 0) {
			t.Errorf("round %d: slowdown %v, want a positive ratio", i, r)
		}
	}
	if c.Shared && c.Unsure {
		t.Errorf("both shared and unsure: %+v", c)
	}
}
