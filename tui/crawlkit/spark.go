package crawlkit

import (
	"strings"

	"charm.land/bubbles/v2/progress"

	"github.com/mneme-archive/mneme/tui/screen"
)

// sparks are the eight heights of a sparkline cell.
var sparks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws the last width values scaled to the largest, one cell
// each, right-aligned: the activity of an incremental crawl, which has no
// end to progress towards.
func Sparkline(values []float64, width int) string {
	if len(values) > width {
		values = values[len(values)-width:]
	}
	top := 0.0
	for _, v := range values {
		top = max(top, v)
	}
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", width-len(values)))
	for _, v := range values {
		i := 0
		if top > 0 && v > 0 {
			i = min(int(v/top*float64(len(sparks)-1)+0.5), len(sparks)-1)
		}
		b.WriteRune(sparks[i])
	}
	return b.String()
}

// Bar draws a snapshot crawl's progress, done of done+left URLs, with its
// percentage, in width cells.
func Bar(done, left int64, width int) string {
	p := 0.0
	if done+left > 0 {
		p = float64(done) / float64(done+left)
	}
	return progress.New(progress.WithWidth(width), progress.WithFillCharacters('█', '░'), progress.WithColors(screen.OKColor)).ViewAs(p)
}
