package crawlkit

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

func TestSparkline(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		width  int
		want   string
	}{
		{nil, 4, "    "},
		{[]float64{0, 0}, 3, " ▁▁"},
		{[]float64{1, 2, 4, 8}, 4, "▂▃▅█"},
		{[]float64{9, 1, 2, 4, 8}, 4, "▂▃▅█"}, // only the last width values
	} {
		if got := Sparkline(tc.values, tc.width); got != tc.want {
			t.Errorf("Sparkline(%v, %d) = %q, want %q", tc.values, tc.width, got, tc.want)
		}
	}
}

func TestBar(t *testing.T) {
	for _, tc := range []struct {
		done, left int64
		pct        string
	}{{0, 0, "0%"}, {1, 3, "25%"}, {5, 0, "100%"}} {
		got := ansi.Strip(Bar(tc.done, tc.left, 14))
		if ansi.StringWidth(got) != 14 || !strings.HasSuffix(got, tc.pct) {
			t.Errorf("Bar(%d, %d) = %q, want 14 cells ending %s", tc.done, tc.left, got, tc.pct)
		}
	}
}

func TestUntilAndSizes(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if got := Until(now.Add(1500*time.Millisecond), now); got != "in 1.5s" {
		t.Errorf("Until in 1.5 s = %q", got)
	}
	if Until(now.Add(-time.Second), now) != "now" || Until(time.Time{}, now) != "" {
		t.Error("Until of a past or zero time")
	}
	if Bytes(999) != "999 B" || Bytes(1500) != "1.5 kB" || Bytes(2_500_000) != "2.5 MB" {
		t.Errorf("Bytes: %s %s %s", Bytes(999), Bytes(1500), Bytes(2_500_000))
	}
	if Errors(map[string]int64{"dns": 2, "http 404": 3}) != 5 {
		t.Error("Errors does not sum")
	}
	if ansi.Strip(State("running")) != "running" || State("stopped") != "stopped" {
		t.Error("State changes the text")
	}
}

func TestClip(t *testing.T) {
	if got := Clip("abcdef\nab\n\nxyz123", 4); got != "abc…\nab\n\nxyz…" {
		t.Errorf("Clip = %q", got)
	}
}
