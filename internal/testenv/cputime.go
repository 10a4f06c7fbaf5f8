package testenv

import (
	"syscall"
	"time"
)

// CPUTime returns the user and system CPU time this process has used (0
// when the system cannot tell): benchmarks report CPU per unit of work,
// which a machine shared with other work inflates far less than wall time.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
