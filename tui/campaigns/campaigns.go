// Package campaigns is the TUI's screen of the social campaigns of a data
// folder, read from the control API every poll: per campaign its state,
// pass, posts, requests, what is left of its budget and its last error;
// enter shows the selected campaign's (query, platform) pairs with their
// posts, requests and errors. Keys start, pause, resume and stop the
// selected campaign and add a query to it.
package campaigns

import (
	"context"
	"fmt"
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

var keys = struct {
	Pairs, Add, Back key.Binding
}{
	Pairs: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "the campaign's pairs: posts, requests, errors")),
	Add:   key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add a query: PLATFORM KIND QUERY")),
	Back:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the campaigns")),
}

// Options configure the screen.
type Options struct {
	Client *api.Client
	// Interval between polls (default one second).
	Interval time.Duration
}

type listMsg struct {
	gen  int
	list []api.Campaign
	err  error
}

type tickMsg struct{ gen int }

// actionMsg answers a lifecycle action or an added query.
type actionMsg struct {
	id, action string
	c          api.Campaign
	err        error
}

// Model is the campaigns screen.
type Model struct {
	opts   Options
	list   []api.Campaign
	grid   screen.Grid
	err    error
	gen    int
	loaded bool
	// pairs is the campaign whose pairs are shown, "" for the list.
	pairs string

	ask    crawlkit.Question
	prompt crawlkit.Prompt

	width, height int
}

// New returns the screen; Init starts polling.
func New(o Options) *Model {
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	return &Model{opts: o, prompt: crawlkit.NewPrompt("add a query (platform kind query): "), gen: 1}
}

func (m *Model) Title() string { return "Campaigns" }
func (m *Model) Typing() bool  { return m.prompt.Active() || m.ask.Asking() }
func (m *Model) Init() tea.Cmd { return m.poll(m.gen) }
func (m *Model) Busy() string  { return "" }

// Grid is the table shown.
func (m *Model) Grid() *screen.Grid { return &m.grid }

func (m *Model) Keys() []key.Binding {
	return append(append([]key.Binding{keys.Pairs, keys.Add, keys.Back}, crawlkit.LifecycleHelp()...), screen.GridHelp()[:3]...)
}

func (m *Model) poll(gen int) tea.Cmd {
	c := m.opts.Client
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		l, err := c.Campaigns(ctx)
		return listMsg{gen: gen, list: l, err: err}
	})
}

// selected is the campaign under the cursor, or the one whose pairs are
// shown.
func (m *Model) selected() (string, bool) {
	if m.pairs != "" {
		return m.pairs, true
	}
	i, ok := m.grid.SelectedIndex()
	if !ok || i >= len(m.list) {
		return "", false
	}
	return m.list[i].ID, true
}

func (m *Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case screen.SizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.render()
	case screen.FilterMsg:
		m.grid.SetFilter(msg.Text)
	case listMsg:
		m.loaded, m.err = true, msg.err
		if msg.err == nil {
			m.list = msg.list
			m.render()
		}
		if msg.gen == m.gen {
			return m, crawlkit.Tick(m.opts.Interval, m.gen, func(g int) tea.Msg { return tickMsg{g} })
		}
	case tickMsg:
		if msg.gen == m.gen {
			return m, m.poll(m.gen)
		}
	case actionMsg:
		if msg.err != nil {
			return m, tea.Batch(screen.Status(fmt.Sprintf("%s %s: %s", msg.action, msg.id, crawlkit.Words(msg.err)), true), m.poll(0))
		}
		return m, tea.Batch(screen.Status(fmt.Sprintf("%s %s: %s", msg.action, msg.id, msg.c.State), false), m.poll(0))
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) action(id, action string) tea.Cmd {
	c := m.opts.Client
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		st, err := c.CampaignDo(ctx, id, action)
		return actionMsg{id: id, action: action, c: st, err: err}
	})
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.ask.Asking() {
		return m.ask.Key(msg)
	}
	if m.prompt.Active() {
		return m.prompt.Key(msg, m.add)
	}
	if key.Matches(msg, keys.Back) && m.pairs != "" {
		m.pairs = ""
		m.render()
		return nil
	}
	id, ok := m.selected()
	if !ok {
		m.grid.Update(msg)
		return nil
	}
	k := crawlkit.Keys
	switch {
	case key.Matches(msg, keys.Pairs) && m.pairs == "":
		m.pairs = id
		m.render()
		return nil
	case key.Matches(msg, keys.Add):
		return m.prompt.Open()
	case key.Matches(msg, k.Start):
		return m.action(id, "start")
	case key.Matches(msg, k.Pause):
		return m.action(id, "pause")
	case key.Matches(msg, k.Resume):
		return m.action(id, "resume")
	case key.Matches(msg, k.Stop):
		m.ask = crawlkit.Question{Text: "Stop campaign " + id + "?", Yes: m.action(id, "stop")}
		return nil
	}
	m.grid.Update(msg)
	return nil
}

// add adds the query typed, "platform kind query…", to the selected
// campaign.
func (m *Model) add(input string) tea.Cmd {
	id, ok := m.selected()
	if !ok {
		return nil
	}
	f := strings.Fields(input)
	if len(f) < 3 {
		return screen.Status(fmt.Sprintf("add a query as PLATFORM KIND QUERY, e.g. feed list https://example.org/feed/ (got %q)", input), true)
	}
	p := api.NewPair{Platform: f[0], Kind: f[1], Query: strings.Join(f[2:], " ")}
	c := m.opts.Client
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		st, err := c.AddPair(ctx, id, p)
		return actionMsg{id: id, action: "add " + p.Kind + " " + p.Query + " on " + p.Platform + " to", c: st, err: err}
	})
}

// left renders what is left of a budget.
func left(budget, used int64) string {
	if budget <= 0 {
		return "∞"
	}
	return strconv.FormatInt(max(budget-used, 0), 10)
}

// render fills the table: the campaigns, or the pairs of one.
func (m *Model) render() {
	if m.pairs != "" {
		var c *api.Campaign
		for i := range m.list {
			if m.list[i].ID == m.pairs {
				c = &m.list[i]
			}
		}
		var rows [][]string
		if c != nil {
			for _, p := range c.Pairs {
				errs := ""
				if p.Errors > 0 {
					errs = screen.Error.Render(strconv.FormatInt(p.Errors, 10))
				}
				done := ""
				if p.Done {
					done = "✓"
				}
				rows = append(rows, []string{p.Platform, p.Kind, p.Query, strconv.FormatInt(p.Pass, 10), done,
					strconv.FormatInt(p.Posts, 10), strconv.FormatInt(p.Requests, 10), errs, p.LastError})
			}
		}
		m.grid.SetTable([]string{"platform", "kind", "query", "pass", "done", "posts", "requests", "errors", "last error"}, rows)
	} else {
		rows := make([][]string, len(m.list))
		for i, c := range m.list {
			last := ""
			if n := len(c.LastErrors); n > 0 {
				last = screen.Error.Render(c.LastErrors[n-1])
			}
			rows[i] = []string{c.ID, crawlkit.State(c.State), strconv.FormatInt(c.Pass, 10), strconv.FormatInt(c.Posts, 10),
				strconv.FormatInt(c.Requests, 10), left(c.BudgetRequests, c.Requests), left(c.BudgetPosts, c.Posts),
				strconv.Itoa(len(c.Pairs)), last}
		}
		m.grid.SetTable([]string{"campaign", "state", "pass", "posts", "requests", "requests left", "posts left", "pairs", "last error"}, rows)
	}
	m.grid.SetFull(8) // the last error, whole under the rows
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
	case m.pairs != "":
		info = screen.Faint.Render("pairs of " + m.pairs + " · esc back · a add a query · s/p/r/x start/pause/resume/stop")
	case len(m.list) == 0:
		info = screen.Faint.Render("no campaigns yet · mneme social create SPEC.yaml creates one")
	default:
		info = screen.Faint.Render(fmt.Sprintf("%d campaigns · enter pairs · a add a query · s/p/r/x start/pause/resume/stop", len(m.list)))
	}
	return screen.Title.Render("Social campaigns") + "\n" + ansi.Truncate(info, m.width, "…") + "\n" + m.grid.View()
}
