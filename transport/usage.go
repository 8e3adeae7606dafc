package transport

// ProcessCPU returns the CPU time this process has used so far, user and
// system, in seconds (getrusage RUSAGE_SELF on Unix; zeros elsewhere).
func ProcessCPU() (user, sys float64) {
	user, sys, _ = processUsage()
	return user, sys
}
