package fetch

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter caps a Retry-After so that an absurd value cannot park a host
// for years; the crawl loop applies its own policy below it.
const maxRetryAfter = 30 * 24 * time.Hour

// ParseRetryAfter reads a Retry-After value (RFC 9110 10.2.3): delay-seconds or
// an HTTP-date. A date is measured from the server's own Date (serverDate,
// when known), so a skewed clock on either side does not stretch the wait. The
// result is never negative; ok is false for a missing or malformed value.
func ParseRetryAfter(value string, serverDate, now time.Time) (d time.Duration, ok bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if secs, err := strconv.ParseUint(value, 10, 64); err == nil {
		if secs > uint64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	if serverDate.IsZero() {
		serverDate = now
	}
	return min(max(t.Sub(serverDate), 0), maxRetryAfter), true
}
