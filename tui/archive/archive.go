// Package archive is the TUI's archive browser: the URLs of the archive,
// each URL's captures over time, the objects extracted from a capture,
// and from an object the SPARQL query of its history, opened in the
// console. Every level is one SPARQL query, run in the background.
package archive

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/tui/backend"
	"github.com/mneme-archive/mneme/tui/screen"
)

// maxRows bounds what one level holds.
const maxRows = 5000

var keys = struct {
	Open, Back, Query, Reload key.Binding
}{
	Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open: URL → captures → objects → history query")),
	Back:   key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc/backspace", "back one level")),
	Query:  key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "open this level's query in the SPARQL console")),
	Reload: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload")),
}

// kind is what a level lists.
type kind uint8

const (
	urls kind = iota
	captures
	objects
)

// level is one list of the browser, with the query that fills it.
type level struct {
	kind    kind
	label   string // the breadcrumb
	query   string
	grid    screen.Grid
	filter  string // set with / while this level is shown
	loading bool
	err     error
}

// loadedMsg fills a level.
type loadedMsg struct {
	id   int
	vars []string
	rows [][]rdf.Term
	err  error
}

// Model is the archive browser screen.
type Model struct {
	b      backend.Backend
	levels []*level
	id     int // of the query filling the deepest level
	width  int
	height int
}

// New returns the browser at the URL list.
func New(b backend.Backend) *Model {
	return &Model{b: b, levels: []*level{{kind: urls, label: "URLs", query: urlsQuery()}}}
}

func (m *Model) Title() string      { return "Archive" }
func (m *Model) Typing() bool       { return false }
func (m *Model) Busy() string       { return "" }
func (m *Model) Init() tea.Cmd      { return m.load() }
func (m *Model) Depth() int         { return len(m.levels) }
func (m *Model) top() *level        { return m.levels[len(m.levels)-1] }
func (m *Model) Grid() *screen.Grid { return &m.top().grid }

func (m *Model) Keys() []key.Binding {
	return append([]key.Binding{keys.Open, keys.Back, keys.Query, keys.Reload}, screen.GridHelp()...)
}

// load runs the deepest level's query.
func (m *Model) load() tea.Cmd {
	l := m.top()
	l.loading, l.err = true, nil
	m.id++
	id, q, b := m.id, l.query, m.b
	return func() tea.Msg {
		rows, err := b.Query(context.Background(), q)
		if err != nil {
			return loadedMsg{id: id, err: err}
		}
		defer rows.Close()
		msg := loadedMsg{id: id, vars: rows.Vars()}
		for len(msg.rows) < maxRows && rows.Next() {
			msg.rows = append(msg.rows, append([]rdf.Term(nil), rows.Row()...))
		}
		msg.err = rows.Err()
		return msg
	}
}

func (m *Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case screen.SizeMsg:
		m.width, m.height = msg.Width, msg.Height
		for _, l := range m.levels {
			l.grid.SetSize(m.width, m.gridHeight())
		}
	case screen.FilterMsg:
		m.top().filter = msg.Text
		m.top().grid.SetFilter(msg.Text)
	case loadedMsg:
		if msg.id != m.id {
			return m, nil
		}
		l := m.top()
		l.loading, l.err = false, msg.err
		l.grid.SetData(msg.vars, msg.rows)
		// What a row is named by is shown whole when the row cuts it:
		// the URL, the object's title.
		switch l.kind {
		case urls:
			l.grid.SetFull(0)
		case objects:
			l.grid.SetFull(2)
		}
		l.grid.SetSize(m.width, m.gridHeight())
		l.grid.SetFilter(l.filter)
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, keys.Open):
		return m.open()
	case key.Matches(msg, keys.Back):
		if len(m.levels) > 1 {
			m.levels = m.levels[:len(m.levels)-1]
			m.id++ // a query still filling the level left is stale
			m.top().loading = false
		}
	case key.Matches(msg, keys.Query):
		q := m.top().query
		return func() tea.Msg { return screen.OpenQueryMsg{Query: q} }
	case key.Matches(msg, keys.Reload):
		return m.load()
	default:
		m.top().grid.Update(msg)
	}
	return nil
}

// open descends from the selected row: a URL to its captures, a capture
// to its objects, an object to the console with its history query.
func (m *Model) open() tea.Cmd {
	l := m.top()
	row, ok := l.grid.Selected()
	if !ok || l.loading {
		return nil
	}
	cell := func(name string) rdf.Term {
		for i, v := range l.grid.Vars() {
			if v == name && i < len(row) {
				return row[i]
			}
		}
		return rdf.Term{}
	}
	var next *level
	switch l.kind {
	case urls:
		u := cell("url")
		next = &level{kind: captures, label: u.Value, query: capturesQuery(u.Value)}
	case captures:
		c := cell("capture")
		next = &level{kind: objects, label: "capture " + cell("time").Value, query: objectsQuery(c.Value)}
	case objects:
		q := HistoryQuery(cell("object").Value)
		return func() tea.Msg { return screen.OpenQueryMsg{Query: q, Run: true} }
	}
	next.grid.SetSize(m.width, m.gridHeight())
	m.levels = append(m.levels, next)
	return m.load()
}

func (m *Model) gridHeight() int { return max(m.height-2, 2) }

// Breadcrumb is the path of levels, as shown above the list.
func (m *Model) Breadcrumb() string {
	parts := make([]string, len(m.levels))
	for i, l := range m.levels {
		parts[i] = l.label
	}
	return strings.Join(parts, " › ")
}

func (m *Model) View() string {
	l := m.top()
	crumb := ansi.TruncateLeft(m.Breadcrumb(), max(ansi.StringWidth(m.Breadcrumb())-m.width, 0), "…")
	var info string
	switch {
	case l.loading:
		info = screen.Accent.Render("loading…")
	case l.err != nil:
		info = screen.Error.Render("✗ " + l.err.Error())
	default:
		f := ""
		if l.filter != "" {
			f = fmt.Sprintf(" (filter %q)", l.filter)
		}
		info = screen.Faint.Render(fmt.Sprintf("%d of %d%s · enter opens · s shows the query · esc back", l.grid.Len(), l.grid.Total(), f))
	}
	return screen.Title.Render(crumb) + "\n" + ansi.Truncate(info, m.width, "…") + "\n" + l.grid.View()
}
