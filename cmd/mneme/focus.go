package main

import (
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/mneme-archive/mneme/analysis/focus"
	"github.com/mneme-archive/mneme/crawler"
)

// printFocus sums up a focused crawl's analysis: its harvest ratio and
// the time each module took per page.
func printFocus(w io.Writer, c *crawler.Crawl) {
	fc, ok := c.Focuser().(*focus.Crawl)
	if !ok {
		return
	}
	h := fc.Harvest()
	fmt.Fprintf(w, "focus: harvest ratio %.3f (%d of %d analysed pages above cosine %.3f)\n", h.Ratio, h.Relevant, h.Pages, fc.Threshold())
	costs := fc.Costs()
	names := make([]string, 0, len(costs.PerPage))
	for m := range costs.PerPage {
		names = append(names, m)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "focus: analysis time per page (%d pages):", costs.Pages)
	for _, m := range names {
		fmt.Fprintf(w, " %s %v", m, time.Duration(costs.PerPage[m]).Round(time.Microsecond/10))
	}
	fmt.Fprintln(w)
}
