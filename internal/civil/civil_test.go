package civil

import (
	"fmt"
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

// TestParseDateTimeAgreesWithTime reads dateTimes the standard library
// also reads, in several zones, and checks fields and instant against it.
func TestParseDateTimeAgreesWithTime(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+30*60), time.FixedZone("", -8*3600)}
	for i, day := 0, time.Date(1899, 12, 31, 23, 59, 58, 0, time.UTC); i < 3000; i, day = i+1, day.Add(97*time.Hour+13*time.Minute+7*time.Second) {
		when := day.In(zones[i%len(zones)])
		s := when.Format(time.RFC3339)
		d, ok := ParseDateTime(s, false)
		if !ok || d.Unix() != when.Unix() || d.Year != int64(when.Year()) || d.Hour != when.Hour() || !d.HasTZ {
			t.Fatalf("%s: %+v %v, unix %d want %d", s, d, ok, d.Unix(), when.Unix())
		}
	}
}

// TestParseDateTimeForms checks the lexical rules the standard library
// does not share: 24:00:00, fractions, dates, years past 9999, and
// forms XSD rejects.
func TestParseDateTimeForms(t *testing.T) {
	for _, c := range []struct {
		in   string
		date bool
		want string // Year-Month-Day Hour Frac TZ, "" when rejected
	}{
		{"2024-02-29T24:00:00Z", false, "2024-3-1 0 '' 0 true"},
		{"1999-12-31T23:59:59.500", false, "1999-12-31 23 '5' 0 false"},
		{"12345-01-01T00:00:00-14:00", false, "12345-1-1 0 '' -840 true"},
		{"-0044-03-15", true, "-44-3-15 0 '' 0 false"},
		{"2001-10-26+02:00", true, "2001-10-26 0 '' 120 true"},
		{"2023-02-29T00:00:00", false, ""},
		{"2023-01-01T24:00:01", false, ""},
		{"2023-01-01T10:00:00.", false, ""},
		{"2023-01-01T10:00:00+14:30", false, ""},
		{"02023-01-01", true, ""},
		{"-0000-01-01", true, ""},
		{"2023-1-01", true, ""},
		{"2023-01-01T10:00", false, ""},
	} {
		d, ok := ParseDateTime(c.in, c.date)
		got := ""
		if ok {
			got = fmt.Sprintf("%d-%d-%d %d '%s' %d %v", d.Year, d.Month, d.Day, d.Hour, d.Frac, d.TZ, d.HasTZ)
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.in, got, c.want)
		}
	}
}
