// Package detail is the TUI's view of one crawl, polled from the control
// API: its figures and errors by kind, its host queues with their state
// and next-ready time, the last crawl.log lines and the WARC files
// written. The lifecycle keys of the crawls screen work here too.
package detail

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/tui/crawlkit"
	"github.com/mneme-archive/mneme/tui/screen"
)

// How much one poll asks for.
const (
	maxQueues = 500
	logLines  = 200
)

var keys = struct {
	Pane, Frontier key.Binding
}{
	Pane:     key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "move between queues, crawl.log and WARC files")),
	Frontier: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "the crawl's frontier")),
}

// Options configure the screen.
type Options struct {
	Client   *api.Client
	Interval time.Duration // between polls, default one second
}

// pane is a part of the screen that takes the movement keys.
type pane uint8

const (
	queuesPane pane = iota
	logPane
	warcsPane
	panes
)

var paneNames = [panes]string{"host queues", "crawl.log", "WARC files"}

// loadedMsg is a poll's answer for crawl id.
type loadedMsg struct {
	gen    int
	id     string
	status api.Status
	queues api.Queues
	log    api.Log
	warcs  []api.WARCFile
	err    error
}

type tickMsg struct{ gen int }

// Model is the crawl detail screen.
type Model struct {
	opts   Options
	id     string
	gen    int
	loaded bool
	err    error
	status api.Status
	queues api.Queues
	logs   api.Log
	warcs  []api.WARCFile
	at     time.Time // of the last poll, for next-ready times

	grids [panes]screen.Grid
	focus pane
	ask   crawlkit.Question

	width, height int
}

// New returns the screen, showing no crawl until a screen.CrawlMsg.
func New(o Options) *Model {
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	return &Model{opts: o}
}

func (m *Model) Title() string  { return "Crawl" }
func (m *Model) Typing() bool   { return m.ask.Asking() }
func (m *Model) Busy() string   { return "" }
func (m *Model) Init() tea.Cmd  { return nil }
func (m *Model) Crawl() string  { return m.id }
func (m *Model) Focus() string  { return paneNames[m.focus] }
func (m *Model) Logs() []string { return m.logs.Lines }

// Grid is the table of the focused pane.
func (m *Model) Grid() *screen.Grid { return &m.grids[m.focus] }

func (m *Model) Keys() []key.Binding {
	return append(append([]key.Binding{keys.Pane, keys.Frontier}, crawlkit.LifecycleHelp()...), screen.GridHelp()...)
}

// poll reads the crawl's status, queues, log tail and WARC files. The
// queues are only there while the crawl is open in the server: their
// absence is not an error.
func (m *Model) poll(gen int) tea.Cmd {
	c, id := m.opts.Client, m.id
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		msg := loadedMsg{gen: gen, id: id}
		if msg.status, msg.err = c.Status(ctx, id); msg.err != nil {
			return msg
		}
		if msg.status.Live {
			if msg.queues, msg.err = c.Queues(ctx, id, maxQueues); msg.err != nil {
				return msg
			}
		}
		if msg.log, msg.err = c.Log(ctx, id, logLines); msg.err != nil {
			return msg
		}
		msg.warcs, msg.err = c.WARCs(ctx, id)
		return msg
	})
}

func (m *Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case screen.SizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
	case screen.FilterMsg:
		m.grids[m.focus].SetFilter(msg.Text)
	case screen.CrawlMsg:
		if msg.ID == m.id {
			return m, nil
		}
		m.id, m.loaded, m.err = msg.ID, false, nil
		m.gen++
		return m, m.poll(m.gen)
	case loadedMsg:
		if msg.id != m.id {
			return m, nil
		}
		m.loaded, m.err = true, msg.err
		if msg.err == nil {
			m.status, m.queues, m.logs, m.warcs, m.at = msg.status, msg.queues, msg.log, msg.warcs, time.Now()
			m.render()
		}
		if msg.gen == m.gen {
			return m, crawlkit.Tick(m.opts.Interval, m.gen, func(g int) tea.Msg { return tickMsg{g} })
		}
	case tickMsg:
		if msg.gen == m.gen {
			return m, m.poll(m.gen)
		}
	case crawlkit.ActionMsg:
		if msg.ID == m.id { // the crawls screen reports it
			return m, m.poll(0)
		}
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.ask.Asking() {
		return m.ask.Key(msg)
	}
	if m.id == "" {
		return nil
	}
	switch {
	case key.Matches(msg, keys.Pane):
		m.focus = (m.focus + 1) % panes
		return nil
	case key.Matches(msg, keys.Frontier):
		id := m.id
		return func() tea.Msg { return screen.CrawlMsg{ID: id, Show: "Frontier"} }
	}
	if cmd, ok := crawlkit.Lifecycle(msg, m.opts.Client, m.id, &m.ask); ok {
		return cmd
	}
	m.grids[m.focus].Update(msg)
	return nil
}

// render fills the three tables.
func (m *Model) render() {
	var qrows [][]string
	for _, q := range m.queues.Queues {
		last := ""
		if q.LastFetchMS > 0 {
			last = fmt.Sprintf("%.0f ms", q.LastFetchMS)
		}
		qrows = append(qrows, []string{q.Key, crawlkit.State(q.State), strconv.FormatInt(q.Size, 10),
			strconv.FormatInt(q.InFlight, 10), crawlkit.Until(q.NextReady, m.at), last})
	}
	m.grids[queuesPane].SetTable([]string{"host", "state", "queued", "fetching", "next ready", "last fetch"}, qrows)

	lrows := make([][]string, 0, len(m.logs.Lines))
	for i := len(m.logs.Lines) - 1; i >= 0; i-- { // newest first
		var e api.LogEntry
		if i < len(m.logs.Entries) {
			e = m.logs.Entries[i]
		}
		lrows = append(lrows, logRow(m.logs.Lines[i], e))
	}
	m.grids[logPane].SetTable([]string{"time", "status", "size", "mime", "URL"}, lrows)

	var wrows [][]string
	for _, w := range m.warcs {
		state := "closed"
		if w.Open {
			state = crawlkit.State("running")
		}
		idx := ""
		if w.CDXJ {
			idx = "cdxj"
		}
		wrows = append(wrows, []string{crawlkit.Bytes(w.Size), state, idx, w.Name})
	}
	m.grids[warcsPane].SetTable([]string{"size", "state", "index", "file"}, wrows)
	m.layout()
}

// logRow is a crawl.log line in columns (its fields as the server read
// them), errors (negative or 4xx/5xx codes) marked; a line that did not
// parse is shown whole.
func logRow(line string, e api.LogEntry) []string {
	if e.URI == "" {
		return []string{"", "", "", "", line}
	}
	status := strconv.Itoa(e.Status)
	if e.Status < 0 || e.Status >= 400 {
		status = screen.Error.Render(status)
	}
	size := ""
	if e.Size >= 0 {
		size = crawlkit.Bytes(e.Size)
	}
	mime, _, _ := strings.Cut(e.MimeType, ";")
	return []string{e.Time.UTC().Format("15:04:05"), status, size, mime, e.URI}
}

// heights splits the body among the panes: each gets the rows it has
// when they all fit; otherwise the others get a few rows each, the
// focused pane what it needs of the rest, and what is left goes to the
// panes that want more, the log first.
func (m *Model) heights() [panes]int {
	avail := max(m.height-2-int(panes), int(panes)*2) // less the header and the pane titles
	var want, h [panes]int
	for p := range panes {
		want[p] = max(m.grids[p].Len()+1, 2)
	}
	left := avail
	for p := range panes {
		if p != m.focus {
			h[p] = min(want[p], max(avail/5, 2))
			left -= h[p]
		}
	}
	h[m.focus] = max(min(want[m.focus], left), 2)
	left -= h[m.focus]
	for _, p := range []pane{logPane, queuesPane, warcsPane} {
		add := max(min(left, want[p]-h[p]), 0)
		h[p] += add
		left -= add
	}
	h[logPane] += max(left, 0)
	return h
}

func (m *Model) layout() {
	h := m.heights()
	for p := range panes {
		m.grids[p].SetSize(m.width, h[p])
	}
}

func (m *Model) View() string {
	if m.id == "" {
		return screen.Faint.Render("No crawl chosen: pick one on the Crawls screen and press enter.")
	}
	s := m.status
	var b strings.Builder
	b.WriteString(screen.Title.Render("crawl "+m.id) + " · " + crawlkit.State(s.State))
	if s.Reason != "" && s.Reason != s.State {
		b.WriteString(" (" + s.Reason + ")")
	}
	b.WriteString("\n")
	switch {
	case m.ask.Asking():
		b.WriteString(m.ask.View())
	case m.err != nil:
		b.WriteString(screen.Error.Render("✗ " + m.err.Error()))
	case !m.loaded:
		b.WriteString(screen.Accent.Render("loading…"))
	default:
		b.WriteString(fmt.Sprintf("%d fetched · %s · %s pages/s · %d queued · %d in flight · %s", s.Fetched,
			crawlkit.Bytes(s.Bytes), crawlkit.Rate(s.PagesPerSecond), s.Queued, s.InFlight, errorsLine(s.Errors)))
	}
	h := m.heights()
	for p := range panes {
		title := fmt.Sprintf("%s (%d)", paneNames[p], m.grids[p].Total())
		if p == queuesPane && m.queues.Total > len(m.queues.Queues) {
			title = fmt.Sprintf("%s (%d of %d)", paneNames[p], len(m.queues.Queues), m.queues.Total)
		}
		if p == queuesPane && !s.Live && m.loaded {
			title += " · not open in the server: start it to see its queues"
		}
		if p == m.focus {
			title = screen.Selected.Render(" " + title + " ")
		} else {
			title = screen.Header.Render(title)
		}
		b.WriteString("\n" + title + "\n" + fitLines(m.grids[p].View(), h[p]))
	}
	return crawlkit.Clip(b.String(), m.width)
}

// errorsLine lists the errors by kind, most frequent first.
func errorsLine(errs map[string]int64) string {
	if len(errs) == 0 {
		return "no errors"
	}
	kinds := slices.SortedFunc(maps.Keys(errs), func(a, b string) int {
		if errs[a] != errs[b] {
			return int(errs[b] - errs[a])
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s %d", k, errs[k])
	}
	return screen.Error.Render("errors: " + strings.Join(parts, ", "))
}

// fitLines pads or cuts s to n lines.
func fitLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if s == "" {
		lines = nil
	}
	if len(lines) > n {
		lines = lines[:n]
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
