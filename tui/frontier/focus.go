package frontier

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/tui/crawlkit"
	"github.com/mneme-archive/mneme/tui/screen"
)

// The focused crawl's keys: its weights, and why a URL has its score.
var focusKeys = struct {
	Weights, Why key.Binding
}{
	Weights: key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "edit the focus weights: \"anchor=0.5 document=0.2\" (focused crawls)")),
	Why:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "why the URL has its score: each module's contribution (focused crawls)")),
}

type focusMsg struct {
	id    string
	focus *api.Focus // nil: the crawl is not focused
}

type explainedMsg struct {
	e   api.Explanation
	err error
}

type weightsMsg struct {
	f   api.Focus
	err error
}

// pollFocus reads the focus state; a crawl that is not focused (or not
// open) has none, which is no error for this screen.
func (m *Model) pollFocus() tea.Cmd {
	c, id := m.opts.Client, m.id
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		f, err := c.Focus(ctx, id)
		if err != nil {
			return focusMsg{id: id}
		}
		return focusMsg{id: id, focus: &f}
	})
}

func (m *Model) explain(u string) tea.Cmd {
	c, id := m.opts.Client, m.id
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		e, err := c.Explain(ctx, id, u)
		return explainedMsg{e: e, err: err}
	})
}

func (m *Model) setWeights(w map[string]float64) tea.Cmd {
	c, id := m.opts.Client, m.id
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		f, err := c.SetFocusWeights(ctx, id, w)
		return weightsMsg{f: f, err: err}
	})
}

// parseWeights reads "module=weight …".
func parseWeights(text string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, f := range strings.Fields(strings.ReplaceAll(text, ",", " ")) {
		name, v, ok := strings.Cut(f, "=")
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil || x < 0 {
			return nil, fmt.Errorf("weights: %q: want module=weight with a weight ≥ 0", f)
		}
		out[name] = x
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("weights: none given")
	}
	return out, nil
}

// formatWeights writes weights as parseWeights reads them, by module name.
func formatWeights(w map[string]float64) string {
	names := make([]string, 0, len(w))
	for n := range w {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%g", n, w[n])
	}
	return b.String()
}

// explanation is one line: each module's contribution, largest first.
func explanation(e api.Explanation) string {
	type c struct {
		m string
		x float64
	}
	var cs []c
	for m, x := range e.Contributions {
		cs = append(cs, c{m, x})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].x > cs[j].x || cs[i].x == cs[j].x && cs[i].m < cs[j].m })
	parts := make([]string, len(cs))
	for i, x := range cs {
		parts[i] = fmt.Sprintf("%s %.3f (%.3f×%g)", x.m, x.x, e.Modules[x.m], e.Weights[x.m])
	}
	return fmt.Sprintf("why %.3f = %s · %d sightings, %s, queued at %.3f · %s", e.Current, strings.Join(parts, " + "), e.Sightings, e.Update, e.Score, e.URL)
}

// sparkline draws values in [0, 1] as block characters, the last width.
func sparkline(vs []float64, width int) string {
	const bars = "▁▂▃▄▅▆▇█"
	runes := []rune(bars)
	if len(vs) > width {
		vs = vs[len(vs)-width:]
	}
	var b strings.Builder
	for _, v := range vs {
		i := int(math.Round(v * float64(len(runes)-1)))
		b.WriteRune(runes[min(max(i, 0), len(runes)-1)])
	}
	return b.String()
}

// focusLine sums the focused crawl up: harvest ratio over time, topic
// terms, weights.
func focusLine(f *api.Focus) string {
	terms := make([]string, 0, 8)
	for _, t := range f.Terms[:min(8, len(f.Terms))] {
		terms = append(terms, t.Term)
	}
	line := fmt.Sprintf("harvest %.3f (%d/%d) %s · topic: %s · %s",
		f.Harvest.Ratio, f.Harvest.Relevant, f.Harvest.Pages, sparkline(f.Harvest.Series, 30), strings.Join(terms, " "), formatWeights(f.Weights))
	if r := f.Reference; r != nil && len(r.Proposed) > 0 {
		line += fmt.Sprintf(" · reference crawl proposes %d terms", len(r.Proposed))
	}
	return line
}

// focusUpdate handles the focus messages; handled is false for others.
func (m *Model) focusUpdate(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg := msg.(type) {
	case focusMsg:
		if msg.id == m.id {
			m.focus = msg.focus
		}
		return nil, true
	case explainedMsg:
		if msg.err != nil {
			return screen.Status("why: "+crawlkit.Words(msg.err), true), true
		}
		return screen.Status(explanation(msg.e), false), true
	case weightsMsg:
		if msg.err != nil {
			return screen.Status(crawlkit.Words(msg.err), true), true
		}
		m.focus = &msg.f
		return tea.Batch(screen.Status("weights "+formatWeights(msg.f.Weights)+": queued URLs rescored", false), m.poll(0)), true
	}
	return nil, false
}
