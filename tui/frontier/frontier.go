// Package frontier is the TUI's view of a crawl's frontier through the
// control API: the queued URLs with the highest scores (the next to be
// fetched, per host), and the injection service's three edits: give a
// URL a new score, blacklist it, or inject new URLs.
package frontier

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/tui/crawlkit"
	"github.com/mneme-archive/mneme/tui/screen"
)

// limit is how many URLs a poll lists.
const limit = 200

var keys = struct {
	Score, Blacklist, Inject, Refresh key.Binding
}{
	Score:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "set the URL's score (0-1; the crawl's update rule combines it)")),
	Blacklist: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "blacklist the URL (asks first)")),
	Inject:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "inject URLs: \"URL [URL…] [score]\"")),
	Refresh:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh now")),
}

// Options configure the screen.
type Options struct {
	Client   *api.Client
	Interval time.Duration // between polls, default two seconds
}

type loadedMsg struct {
	gen  int
	id   string
	urls []api.Queued
	err  error
}

type tickMsg struct{ gen int }

// injectedMsg answers an edit.
type injectedMsg struct {
	what string
	err  error
}

// prompt is what the text field asks for.
type prompt uint8

const (
	noPrompt prompt = iota
	scorePrompt
	injectPrompt
	weightsPrompt
)

// Model is the frontier screen.
type Model struct {
	opts   Options
	id     string
	gen    int
	loaded bool
	err    error
	urls   []api.Queued
	grid   screen.Grid
	focus  *api.Focus // nil unless the crawl is focused

	ask    crawlkit.Question
	prompt prompt
	target string // the URL a score is for
	input  textinput.Model

	width, height int
}

// New returns the screen, showing no crawl until a screen.CrawlMsg.
func New(o Options) *Model {
	if o.Interval <= 0 {
		o.Interval = 2 * time.Second
	}
	return &Model{opts: o, input: textinput.New()}
}

func (m *Model) Title() string      { return "Frontier" }
func (m *Model) Typing() bool       { return m.prompt != noPrompt || m.ask.Asking() }
func (m *Model) Busy() string       { return "" }
func (m *Model) Init() tea.Cmd      { return nil }
func (m *Model) Crawl() string      { return m.id }
func (m *Model) URLs() []api.Queued { return m.urls }
func (m *Model) Grid() *screen.Grid { return &m.grid }

func (m *Model) Keys() []key.Binding {
	return append([]key.Binding{keys.Score, keys.Blacklist, keys.Inject, keys.Refresh, focusKeys.Weights, focusKeys.Why}, screen.GridHelp()...)
}

func (m *Model) poll(gen int) tea.Cmd {
	c, id := m.opts.Client, m.id
	return tea.Batch(crawlkit.Call(func(ctx context.Context) tea.Msg {
		urls, err := c.Frontier(ctx, id, limit)
		return loadedMsg{gen: gen, id: id, urls: urls, err: err}
	}), m.pollFocus())
}

// inject sends items to the crawl's injection service.
func (m *Model) inject(what string, items []api.InjectItem) tea.Cmd {
	c, id := m.opts.Client, m.id
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		_, err := c.Inject(ctx, id, items)
		return injectedMsg{what: what, err: err}
	})
}

func (m *Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	if cmd, ok := m.focusUpdate(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case screen.SizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.grid.SetSize(m.width, m.height-2)
	case screen.FilterMsg:
		m.grid.SetFilter(msg.Text)
	case screen.CrawlMsg:
		if msg.ID == m.id {
			return m, nil
		}
		m.id, m.loaded, m.err, m.urls, m.focus = msg.ID, false, nil, nil, nil
		m.render()
		m.gen++
		return m, m.poll(m.gen)
	case loadedMsg:
		if msg.id != m.id {
			return m, nil
		}
		m.loaded, m.err = true, msg.err
		if msg.err == nil {
			m.urls = msg.urls
			m.render()
		}
		if msg.gen == m.gen {
			return m, crawlkit.Tick(m.opts.Interval, m.gen, func(g int) tea.Msg { return tickMsg{g} })
		}
	case tickMsg:
		if msg.gen == m.gen {
			return m, m.poll(m.gen)
		}
	case injectedMsg:
		if msg.err != nil {
			return m, screen.Status(msg.what+": "+crawlkit.Words(msg.err), true)
		}
		return m, tea.Batch(screen.Status(msg.what, false), m.poll(0))
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.ask.Asking() {
		return m.ask.Key(msg)
	}
	if m.prompt != noPrompt {
		return m.promptKey(msg)
	}
	if m.id == "" {
		return nil
	}
	switch {
	case key.Matches(msg, keys.Inject):
		return m.open(injectPrompt, "inject: ", "", "")
	case key.Matches(msg, keys.Refresh):
		return m.poll(0)
	case key.Matches(msg, focusKeys.Weights) && m.focus != nil:
		return m.open(weightsPrompt, "weights: ", "", formatWeights(m.focus.Weights))
	}
	i, ok := m.grid.SelectedIndex()
	if !ok {
		m.grid.Update(msg)
		return nil
	}
	u := m.urls[i]
	switch {
	case key.Matches(msg, keys.Score):
		return m.open(scorePrompt, "score for "+u.URL+": ", u.URL, strconv.FormatFloat(u.Score, 'g', -1, 64))
	case key.Matches(msg, keys.Blacklist):
		m.ask = crawlkit.Question{Text: "Blacklist " + u.URL + "?",
			Yes: m.inject("blacklisted "+u.URL, []api.InjectItem{{URL: u.URL, Blacklisted: true}})}
		return nil
	case key.Matches(msg, focusKeys.Why) && m.focus != nil:
		return m.explain(u.URL)
	}
	m.grid.Update(msg)
	return nil
}

func (m *Model) open(p prompt, label, target, value string) tea.Cmd {
	m.prompt, m.target = p, target
	m.input.Prompt = label
	m.input.SetValue(value)
	m.input.CursorEnd()
	return m.input.Focus()
}

func (m *Model) promptKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.prompt = noPrompt
		m.input.Blur()
		return nil
	case "enter":
		p, text := m.prompt, strings.TrimSpace(m.input.Value())
		m.prompt = noPrompt
		m.input.Blur()
		return m.submit(p, text)
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return cmd
}

// submit turns a prompt's text into an injection; bad input is reported
// in the status bar without a request.
func (m *Model) submit(p prompt, text string) tea.Cmd {
	switch p {
	case scorePrompt:
		s, err := parseScore(text)
		if err != nil {
			return screen.Status(err.Error(), true)
		}
		return m.inject(fmt.Sprintf("scored %s %g", m.target, s), []api.InjectItem{{URL: m.target, Score: &s}})
	case injectPrompt:
		fields := strings.Fields(text)
		var score *float64
		if n := len(fields); n > 1 {
			if s, err := parseScore(fields[n-1]); err == nil {
				score, fields = &s, fields[:n-1]
			}
		}
		if len(fields) == 0 {
			return screen.Status("inject: no URL given", true)
		}
		items := make([]api.InjectItem, len(fields))
		for i, u := range fields {
			items[i] = api.InjectItem{URL: u, Score: score}
		}
		return m.inject(fmt.Sprintf("injected %d URLs", len(items)), items)
	case weightsPrompt:
		w, err := parseWeights(text)
		if err != nil {
			return screen.Status(err.Error(), true)
		}
		return m.setWeights(w)
	}
	return nil
}

func parseScore(text string) (float64, error) {
	s, err := strconv.ParseFloat(text, 64)
	if err != nil || s < 0 || s > 1 {
		return 0, fmt.Errorf("score %q: a number from 0 to 1 expected", text)
	}
	return s, nil
}

func (m *Model) render() {
	rows := make([][]string, len(m.urls))
	for i, u := range m.urls {
		rows[i] = []string{strconv.FormatFloat(u.Score, 'f', 3, 64), u.Queue, u.Hops, u.URL}
	}
	m.grid.SetTable([]string{"score", "queue", "hops", "URL"}, rows)
	m.grid.SetFull(3)
	m.grid.SetSize(m.width, m.height-2)
}

func (m *Model) View() string {
	if m.id == "" {
		return screen.Faint.Render("No crawl chosen: pick one on the Crawls screen and press f.")
	}
	var info string
	switch {
	case m.ask.Asking():
		info = m.ask.View()
	case m.prompt != noPrompt:
		info = m.input.View()
	case m.err != nil:
		info = screen.Error.Render("✗ " + crawlkit.Words(m.err))
	case !m.loaded:
		info = screen.Accent.Render("loading…")
	case m.focus != nil:
		info = screen.Faint.Render(fmt.Sprintf("%d best-scored queued URLs · s score · b blacklist · a inject · w weights · e why", len(m.urls)))
	default:
		info = screen.Faint.Render(fmt.Sprintf("%d best-scored queued URLs · s score · b blacklist · a inject", len(m.urls)))
	}
	title := screen.Title.Render("Frontier of " + m.id)
	if m.focus != nil {
		title += " " + ansi.Truncate(focusLine(m.focus), max(0, m.width-len("Frontier of "+m.id)-1), "…")
	}
	return title + "\n" + ansi.Truncate(info, m.width, "…") + "\n" + m.grid.View()
}
