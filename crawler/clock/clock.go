// Package clock is the crawler's source of time. Everything that schedules
// (the frontier, revisit policies, robots caching) reads the time through
// [Clock], so tests and the revisit simulator run on a [Virtual] clock that
// moves only when told to: no sleeps, and runs are reproducible.
package clock

import (
	"sync"
	"time"
)

// Clock tells the time.
type Clock interface{ Now() time.Time }

// System is the wall clock.
type System struct{}

// Now returns the current wall-clock time.
func (System) Now() time.Time { return time.Now() }

// Virtual is a clock whose time changes only through Set and Advance. It is
// safe for concurrent use.
type Virtual struct {
	mu  sync.Mutex
	now time.Time
}

// NewVirtual returns a virtual clock that reads start.
func NewVirtual(start time.Time) *Virtual { return &Virtual{now: start} }

// Now returns the clock's current time.
func (v *Virtual) Now() time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.now
}

// Advance moves the clock forward by d (backward if d is negative) and
// returns the new time.
func (v *Virtual) Advance(d time.Duration) time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.now = v.now.Add(d)
	return v.now
}

// Set moves the clock to t.
func (v *Virtual) Set(t time.Time) {
	v.mu.Lock()
	v.now = t
	v.mu.Unlock()
}
