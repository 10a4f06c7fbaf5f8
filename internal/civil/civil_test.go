package civil

import (
	"testing"
	"time"
)

// TestDaysAgreeWithTime compares every day from 1600 to 2400, and some
// far years, with the standard library's calendar.
func TestDaysAgreeWithTime(t *testing.T) {
	check := func(day time.Time) {
		y, m, d := day.Date()
		if got, want := Days(int64(y), int64(m), int64(d)), day.Unix()/86400; got != want {
			t.Fatalf("%s: %d, want %d", day.Format(time.DateOnly), got, want)
		}
	}
	for day := time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC); day.Year() < 2400; day = day.AddDate(0, 0, 1) {
		check(day)
	}
	for _, y := range []int{-4713, -401, -400, -1, 0, 1, 9999, 100000} {
		check(time.Date(y, 2, 29, 0, 0, 0, 0, time.UTC))
		check(time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC))
	}
}
