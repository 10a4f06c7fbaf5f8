package crawlkit

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/tui/screen"
)

// State renders a crawl or queue state, coloured where it matters.
func State(s string) string {
	switch s {
	case "running", "ready":
		return screen.OK.Render(s)
	case "paused", "snoozed", "busy":
		return screen.Accent.Render(s)
	case "exhausted":
		return screen.Error.Render(s)
	}
	return s
}

// Bytes is n in B, KB, MB or GB (powers of 1000, as rates are read).
func Bytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// Rate is a per-second figure with one decimal below 100.
func Rate(r float64) string {
	if r >= 100 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.1f", r)
}

// Until says how long until t from now, "now" when past, "" when zero.
func Until(t, now time.Time) string {
	switch {
	case t.IsZero():
		return ""
	case !t.After(now):
		return "now"
	}
	return "in " + t.Sub(now).Round(100*time.Millisecond).String()
}

// Errors sums a crawl's errors by kind.
func Errors(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// Clip cuts each line of s to width cells, marking a cut with "…", so
// that a screen's view never wraps.
func Clip(s string, width int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "…")
	}
	return strings.Join(lines, "\n")
}

// Plural says n of a thing: "1 entity", "3 entities".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
