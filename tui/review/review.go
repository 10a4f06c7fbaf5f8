// Package review is the TUI's review of the patterns the knowledge base
// learned when a site's template no longer matched it (package
// kb/adapt), through the control API: the learned patterns with what
// they change and the KB patterns that failed, and for one of them what
// its level extracts from an archived page before and after it, side by
// side; accept keeps a pattern, reject stops its use.
package review

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/tui/crawlkit"
	"github.com/mneme-archive/mneme/tui/screen"
)

var keys = struct {
	Preview, Accept, Reject, Refresh key.Binding
}{
	Preview: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "preview: an archived page extracted before and after")),
	Accept:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "accept the pattern (keep it)")),
	Reject:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "reject the pattern (asks first; it stops being used)")),
	Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload the learned patterns")),
}

// Options configure the screen.
type Options struct{ Client *api.Client }

type loadedMsg struct {
	learned api.Learned
	err     error
}

type previewMsg struct {
	id      string
	preview api.Preview
	err     error
}

type reviewedMsg struct {
	p   api.Proposal
	err error
}

// Model is the adaptation review screen.
type Model struct {
	opts    Options
	learned api.Learned
	loaded  bool
	err     error
	grid    screen.Grid
	ask     crawlkit.Question

	previewOf string // the pattern the preview is of
	preview   *api.Preview
	pverr     error
	loading   bool

	width, height int
}

// New returns the screen; Init loads the learned patterns.
func New(o Options) *Model { return &Model{opts: o} }

func (m *Model) Title() string            { return "Review" }
func (m *Model) Typing() bool             { return m.ask.Asking() }
func (m *Model) Busy() string             { return "" }
func (m *Model) Init() tea.Cmd            { return m.load() }
func (m *Model) Patterns() []api.Proposal { return m.learned.Patterns }

// Preview is the preview shown, nil when none.
func (m *Model) Preview() *api.Preview { return m.preview }

func (m *Model) Keys() []key.Binding {
	return append([]key.Binding{keys.Preview, keys.Accept, keys.Reject, keys.Refresh}, screen.GridHelp()[:1]...)
}

func (m *Model) load() tea.Cmd {
	c := m.opts.Client
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		l, err := c.Learned(ctx)
		return loadedMsg{learned: l, err: err}
	})
}

func (m *Model) selected() (api.Proposal, bool) {
	i, ok := m.grid.SelectedIndex()
	if !ok {
		return api.Proposal{}, false
	}
	return m.learned.Patterns[i], true
}

func (m *Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case screen.SizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.grid.SetSize(m.width, m.listHeight())
	case screen.FilterMsg:
		m.grid.SetFilter(msg.Text)
	case loadedMsg:
		m.loaded, m.err = true, msg.err
		if msg.err == nil {
			m.learned = msg.learned
			m.render()
		}
	case previewMsg:
		if msg.id == m.previewOf {
			m.loading, m.pverr, m.preview = false, msg.err, nil
			if msg.err == nil {
				m.preview = &msg.preview
			}
		}
	case reviewedMsg:
		if msg.err != nil {
			return m, screen.Status("review: "+msg.err.Error(), true)
		}
		return m, tea.Batch(screen.Status(fmt.Sprintf("%s %s", msg.p.Status, msg.p.ID), false), m.load())
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.ask.Asking() {
		return m.ask.Key(msg)
	}
	if key.Matches(msg, keys.Refresh) {
		return m.load()
	}
	p, ok := m.selected()
	if !ok {
		m.grid.Update(msg)
		return nil
	}
	c := m.opts.Client
	switch {
	case key.Matches(msg, keys.Preview):
		m.previewOf, m.loading, m.preview, m.pverr = p.ID, true, nil, nil
		return crawlkit.Call(func(ctx context.Context) tea.Msg {
			pv, err := c.Preview(ctx, p.ID, "")
			return previewMsg{id: p.ID, preview: pv, err: err}
		})
	case key.Matches(msg, keys.Accept):
		return review(c, p.ID, true)
	case key.Matches(msg, keys.Reject):
		m.ask = crawlkit.Question{Text: "Reject " + p.ID + " (" + p.What() + ")?", Yes: review(c, p.ID, false)}
		return nil
	}
	if m.grid.Update(msg) {
		m.grid.SetSize(m.width, m.listHeight())
	}
	return nil
}

func review(c *api.Client, id string, accept bool) tea.Cmd {
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		p, err := c.Review(ctx, id, accept)
		return reviewedMsg{p: p, err: err}
	})
}

// listHeight is the list's share of the screen: a third, at least 3
// rows.
func (m *Model) listHeight() int { return max(min(m.grid.Total()+1, m.height/3), 3) }

func (m *Model) render() {
	rows := make([][]string, len(m.learned.Patterns))
	for i, p := range m.learned.Patterns {
		status := string(p.Status)
		switch p.Status {
		case api.Accepted:
			status = screen.OK.Render(status)
		case api.Rejected:
			status = screen.Faint.Render(status)
		default:
			status = screen.Accent.Render(status)
		}
		rows[i] = []string{p.ID, status, p.Method, fmt.Sprintf("%d/%d", len(p.Pages), p.Checked), p.What()}
	}
	m.grid.SetTable([]string{"id", "status", "method", "pages", "changes"}, rows)
	m.grid.SetSize(m.width, m.listHeight())
}

func (m *Model) View() string {
	var info string
	switch {
	case m.ask.Asking():
		info = m.ask.View()
	case m.err != nil:
		info = screen.Error.Render("✗ " + m.err.Error())
	case !m.loaded:
		info = screen.Accent.Render("loading…")
	case len(m.learned.Patterns) == 0:
		info = screen.Faint.Render("no learned patterns in " + m.learned.File)
	default:
		info = screen.Faint.Render(fmt.Sprintf("%d learned patterns · enter preview · a accept · x reject", len(m.learned.Patterns)))
	}
	out := []string{screen.Title.Render("Learned patterns"), info, m.grid.View()}
	if p, ok := m.selected(); ok {
		out = append(out, m.detail(p)...)
	}
	return crawlkit.Clip(strings.Join(out, "\n"), m.width)
}

// detail is the selected pattern, what it replaces, and its preview.
func (m *Model) detail(p api.Proposal) []string {
	lines := []string{"",
		screen.Header.Render("site     ") + p.Site + screen.Faint.Render(" · learned "+p.Learned.Format("2006-01-02 15:04Z")),
		screen.Header.Render("pattern  ") + p.Pattern,
		screen.Header.Render("replaces ") + screen.Error.Render(strings.Join(p.Replaces, " | ")),
	}
	switch {
	case m.previewOf != p.ID:
		return append(lines, screen.Faint.Render("enter: preview on "+first(p.Pages)))
	case m.loading:
		return append(lines, screen.Accent.Render("extracting the archived page…"))
	case m.pverr != nil:
		return append(lines, screen.Error.Render("✗ "+m.pverr.Error()))
	}
	pv := m.preview.Preview
	w := max((m.width-3)/2, 10)
	col := func(title string, objs []api.Object, fails []api.Failure) string {
		var b []string
		b = append(b, screen.Header.Render(title))
		for _, o := range objs {
			b = append(b, objectLines(o, w)...)
		}
		if len(objs) == 0 {
			b = append(b, screen.Faint.Render("no objects"))
		}
		for _, f := range fails {
			b = append(b, screen.Error.Render(ansi.Truncate("✗ "+failure(f), w, "…")))
		}
		return lipgloss.NewStyle().Width(w).Render(strings.Join(b, "\n"))
	}
	lines = append(lines, screen.Faint.Render("on "+m.preview.URL))
	side := lipgloss.JoinHorizontal(lipgloss.Top, col("before", pv.Before, pv.BeforeFailures), " │ ", col("after", pv.After, pv.AfterFailures))
	return append(lines, strings.Split(side, "\n")...)
}

// objectLines shows an object's kind and its fields that have a value.
func objectLines(o api.Object, w int) []string {
	out := []string{screen.Accent.Render(string(o.Kind))}
	add := func(name, v string) {
		if v != "" {
			out = append(out, ansi.Truncate(name+": "+strings.Join(strings.Fields(v), " "), w, "…"))
		}
	}
	add("title", o.Title)
	add("author", o.Author)
	if !o.Date.IsZero() {
		add("date", o.Date.Format("2006-01-02"))
	}
	add("content", o.Content)
	add("tags", strings.Join(o.Tags, ", "))
	return out
}

func failure(f api.Failure) string {
	s := f.Action
	if f.Field != "" {
		s += " " + string(f.Field)
	}
	return s + " failed"
}

func first(pages []string) string {
	if len(pages) == 0 {
		return "(no page: preview with the control API's ?url=)"
	}
	return pages[0]
}
