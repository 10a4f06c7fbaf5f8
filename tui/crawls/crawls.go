// Package crawls is the TUI's list of the crawls of a data folder, read
// from the control API every poll: state, a progress bar (snapshot
// crawls) or an activity sparkline (incremental ones), pages, pages/s,
// queued URLs and errors; keys start, pause, resume and stop the selected
// crawl, create one from seed URLs or a spec file, and open its detail
// or frontier.
package crawls

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/tui/crawlkit"
	"github.com/mneme-archive/mneme/tui/screen"
)

// history is how many polls of activity a sparkline shows.
const history = 12

var keys = struct {
	Detail, Frontier, New key.Binding
}{
	Detail:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "the crawl's detail: queues, crawl.log, WARC files")),
	Frontier: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "the crawl's frontier")),
	New:      key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new crawl: seed URLs (default spec) or a spec file (YAML)")),
}

// Options configure the screen.
type Options struct {
	Client *api.Client
	// Interval between polls (default one second).
	Interval time.Duration
	// Owned says the crawls run in this process, so that quitting stops
	// them (the shell then asks first).
	Owned bool
}

// listMsg is a poll's answer; gen is the poll chain's, 0 for a refresh
// outside it.
type listMsg struct {
	gen  int
	list []api.Status
	err  error
}

type tickMsg struct{ gen int }

// createdMsg answers a creation from seed URLs or a spec file.
type createdMsg struct {
	from   string // the URLs or the file
	status api.Status
	err    error
}

// Model is the crawls screen.
type Model struct {
	opts   Options
	list   []api.Status
	spark  map[string][]float64 // pages fetched per poll, by crawl
	last   map[string]int64     // fetched at the last poll
	grid   screen.Grid
	err    error
	gen    int
	loaded bool

	ask    crawlkit.Question
	prompt crawlkit.Prompt
	// follow is the crawl the cursor goes to at the next render (one just
	// created); otherwise it stays on the crawl it was on, wherever a
	// new crawl moves that crawl's row.
	follow string
	shown  []string // the ids of the grid's rows

	width, height int
}

// New returns the screen; Init starts polling.
func New(o Options) *Model {
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	return &Model{opts: o, spark: map[string][]float64{}, last: map[string]int64{}, prompt: crawlkit.NewPrompt("new crawl, seed URLs or spec file: "), gen: 1}
}

func (m *Model) Title() string { return "Crawls" }
func (m *Model) Typing() bool  { return m.prompt.Active() || m.ask.Asking() }
func (m *Model) Init() tea.Cmd { return m.poll(m.gen) }

// Crawls is the last list polled.
func (m *Model) Crawls() []api.Status { return m.list }

// Grid is the table shown.
func (m *Model) Grid() *screen.Grid { return &m.grid }

func (m *Model) Keys() []key.Binding {
	return append(append([]key.Binding{keys.Detail, keys.Frontier, keys.New}, crawlkit.LifecycleHelp()...), screen.GridHelp()[:3]...)
}

// Busy names the crawls that quitting would stop, when they run here. It
// asks the daemon afresh, since the polled list may predate a crawl's end
// (the question is rare and the daemon is on loopback); the polled list
// answers when the daemon does not within a second.
func (m *Model) Busy() string {
	if !m.opts.Owned {
		return ""
	}
	list := m.list
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if l, err := m.opts.Client.List(ctx); err == nil {
		list = l
	}
	n := 0
	for _, s := range list {
		if s.Live && (s.State == "running" || s.State == "paused") {
			n++
		}
	}
	switch n {
	case 0:
		return ""
	case 1:
		return "a crawl is running and would stop"
	}
	return fmt.Sprintf("%d crawls are running and would stop", n)
}

func (m *Model) poll(gen int) tea.Cmd {
	c := m.opts.Client
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		l, err := c.List(ctx)
		return listMsg{gen: gen, list: l, err: err}
	})
}

// selected is the id of the crawl under the cursor.
func (m *Model) selected() (string, bool) {
	i, ok := m.grid.SelectedIndex()
	if !ok {
		return "", false
	}
	return m.list[i].ID, true
}

func (m *Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case screen.SizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.grid.SetSize(m.width, m.height-2)
		m.render()
	case screen.FilterMsg:
		m.grid.SetFilter(msg.Text)
	case listMsg:
		m.loaded, m.err = true, msg.err
		if msg.err == nil {
			m.record(msg.list)
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
		return m, tea.Batch(crawlkit.Report(msg), m.poll(0))
	case createdMsg:
		if msg.err != nil {
			return m, screen.Status(fmt.Sprintf("new crawl from %s: %s", msg.from, crawlkit.Words(msg.err)), true)
		}
		// The cursor goes to the new crawl, so that s starts it.
		m.follow = msg.status.ID
		return m, tea.Batch(screen.Status(fmt.Sprintf("created crawl %s from %s: s starts it", msg.status.ID, msg.from), false), m.poll(0))
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

// record keeps the list and each crawl's pages fetched since the last
// poll, for its sparkline.
func (m *Model) record(list []api.Status) {
	m.list = list
	for _, s := range list {
		prev, seen := m.last[s.ID]
		m.last[s.ID] = s.Fetched
		if !seen {
			continue
		}
		h := append(m.spark[s.ID], float64(max(s.Fetched-prev, 0)))
		if len(h) > history {
			h = h[len(h)-history:]
		}
		m.spark[s.ID] = h
	}
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.ask.Asking() {
		return m.ask.Key(msg)
	}
	if m.prompt.Active() {
		return m.prompt.Key(msg, m.create)
	}
	if key.Matches(msg, keys.New) {
		return m.prompt.Open()
	}
	id, ok := m.selected()
	if !ok {
		m.grid.Update(msg)
		return nil
	}
	switch {
	case key.Matches(msg, keys.Detail):
		return func() tea.Msg { return screen.CrawlMsg{ID: id, Show: "Crawl"} }
	case key.Matches(msg, keys.Frontier):
		return func() tea.Msg { return screen.CrawlMsg{ID: id, Show: "Frontier"} }
	}
	if cmd, ok := crawlkit.Lifecycle(msg, m.opts.Client, id, &m.ask); ok {
		return cmd
	}
	m.grid.Update(msg)
	return nil
}

// create creates a crawl in the background: of the seed URLs typed, with
// the default spec, or from the spec file named.
func (m *Model) create(input string) tea.Cmd {
	c := m.opts.Client
	input = strings.TrimSpace(input)
	if input == "" {
		return nil
	}
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		y, err := specOf(input)
		if err != nil {
			return createdMsg{from: input, err: err}
		}
		s, err := c.Create(ctx, y)
		return createdMsg{from: input, status: s, err: err}
	})
}

// specOf is the spec a crawl is created from: seeds only when input is
// URLs (the server's defaults for the rest), else the file input names.
func specOf(input string) ([]byte, error) {
	fields := strings.Fields(input)
	urls := 0
	for _, f := range fields {
		if u, err := url.Parse(f); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			urls++
		}
	}
	switch {
	case urls == len(fields):
		seeds, err := json.Marshal(fields) // JSON is YAML
		return []byte("seeds: " + string(seeds) + "\n"), err
	case urls > 0:
		return nil, fmt.Errorf("%q mixes URLs with something else: give seed URLs (http or https) or one spec file", input)
	}
	y, err := os.ReadFile(input)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no spec file %s (seeds are http:// or https:// URLs)", input)
	}
	return y, err
}

// progressWidth is the width of the progress column.
const progressWidth = 14

// render fills the table from the list.
func (m *Model) render() {
	rows := make([][]string, len(m.list))
	for i, s := range m.list {
		var prog string
		switch {
		case s.Incremental:
			prog = crawlkit.Sparkline(m.spark[s.ID], progressWidth)
		case s.State == "finished":
			prog = crawlkit.Bar(1, 0, progressWidth)
		case s.Live:
			prog = crawlkit.Bar(s.Succeeded+s.Failed+s.Disregarded, s.Queued+s.InFlight, progressWidth)
		default: // read from disk: how much is left is unknown until it opens
			prog = screen.Faint.Render("not open")
		}
		errs := ""
		if n := crawlkit.Errors(s.Errors); n > 0 {
			errs = screen.Error.Render(strconv.FormatInt(n, 10))
		}
		rows[i] = []string{s.ID, crawlkit.State(s.State), prog, strconv.FormatInt(s.Fetched, 10),
			crawlkit.Rate(s.PagesPerSecond), strconv.FormatInt(s.Queued, 10), errs}
	}
	keep := m.follow
	if keep == "" && m.grid.Len() > 0 {
		if i, ok := m.grid.SelectedIndex(); ok && i < len(m.shown) {
			keep = m.shown[i]
		}
	}
	m.grid.SetTable([]string{"crawl", "state", "progress", "pages", "pages/s", "queued", "errors"}, rows)
	m.shown = m.shown[:0]
	for i, s := range m.list {
		m.shown = append(m.shown, s.ID)
		if s.ID == keep && m.grid.Select(i) {
			m.follow = ""
		}
	}
	m.grid.SetSize(m.width, m.height-2)
}

func (m *Model) View() string {
	var info string
	switch {
	case m.ask.Asking():
		info = m.ask.View()
	case m.prompt.Active():
		info = m.prompt.View()
	case m.err != nil:
		info = screen.Error.Render("✗ " + crawlkit.Words(m.err))
	case !m.loaded:
		info = screen.Accent.Render("loading…")
	case len(m.list) == 0:
		info = screen.Faint.Render("no crawls yet · n creates one from seed URLs or a spec file")
	default:
		info = screen.Faint.Render(fmt.Sprintf("%d crawls · enter detail · f frontier · s/p/r/x start/pause/resume/stop · n new", len(m.list)))
	}
	return screen.Title.Render("Crawls of "+m.opts.Client.Base) + "\n" + ansi.Truncate(info, m.width, "…") + "\n" + m.grid.View()
}
