//go:build !linux

package ab

import "errors"

// hardwareCounters reports that serbench looks for hardware counters only
// on Linux.
func hardwareCounters() error {
	return errors.New("perf_event_open is Linux's")
}
