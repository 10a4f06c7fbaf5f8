package revisit

import (
	"strconv"
	"time"
)

// Annotation returns the crawl.log annotations of the visit just recorded
// in s, as Heritrix 1.x's AdaptiveRevisitFrontier writes them: the new
// wait, the number of visits, the number of versions and how overdue the
// visit was, e.g. "wt:45s0ms,3vis,1ver,ov:3ms".
func Annotation(s *State) string {
	b := make([]byte, 0, 48)
	b = append(b, "wt:"...)
	b = appendConventional(b, s.Wait)
	b = append(b, ',')
	b = strconv.AppendUint(b, uint64(s.Visits), 10)
	b = append(b, "vis,"...)
	b = strconv.AppendUint(b, uint64(s.Versions), 10)
	b = append(b, "ver,ov:"...)
	b = appendConventional(b, s.Overdue)
	return string(b)
}

// appendConventional formats d as Heritrix's
// ArchiveUtils.formatMillisecondsToConventional does (milliseconds
// precision): days, hours, minutes and seconds each only when the rest
// exceeds one unit (strictly), then the remaining milliseconds always, as
// in "1d2h3m4s5ms", "45s0ms" or "3ms".
func appendConventional(b []byte, d time.Duration) []byte {
	ms := d.Milliseconds()
	if ms < 0 {
		b = append(b, '-')
		ms = -ms
	}
	for _, u := range conventionalUnits {
		if ms > u.ms {
			b = strconv.AppendInt(b, ms/u.ms, 10)
			b = append(b, u.suffix...)
			ms %= u.ms
		}
	}
	b = strconv.AppendInt(b, ms, 10)
	return append(b, "ms"...)
}

var conventionalUnits = [...]struct {
	ms     int64
	suffix string
}{{86_400_000, "d"}, {3_600_000, "h"}, {60_000, "m"}, {1000, "s"}}
