package clock

import (
	"testing"
	"time"
)

func TestVirtualMovesOnlyWhenTold(t *testing.T) {
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	v := NewVirtual(start)
	var c Clock = v
	first := c.Now()
	if second := c.Now(); !first.Equal(start) || !second.Equal(start) {
		t.Fatalf("virtual clock moved by itself: %v, %v", first, second)
	}
	if got := v.Advance(90 * time.Second); !got.Equal(start.Add(90*time.Second)) || !c.Now().Equal(got) {
		t.Fatalf("Advance: got %v, Now %v", got, c.Now())
	}
	later := start.Add(48 * time.Hour)
	v.Set(later)
	if !c.Now().Equal(later) {
		t.Fatalf("Set: Now %v, want %v", c.Now(), later)
	}
}

func TestSystemIsWallClock(t *testing.T) {
	before := time.Now()
	got := System{}.Now()
	after := time.Now()
	if got.Before(before) || got.After(after) {
		t.Fatalf("System.Now %v not between %v and %v", got, before, after)
	}
}
