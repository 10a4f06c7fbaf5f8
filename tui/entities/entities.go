// Package entities is the TUI's entity screen, over the analysis graphs
// as the control API answers them (/api/entities): find an entity by
// name or alias, then its measures crawl by crawl as sparklines and a
// table, its names (label, aliases, proposed name changes with their
// score and evidence), its latest mentions (enter opens the archived
// object's history in the SPARQL console) and its neighbours (enter goes
// to that entity; esc comes back).
package entities

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/tui/archive"
	"github.com/mneme-archive/mneme/tui/crawlkit"
	"github.com/mneme-archive/mneme/tui/screen"
)

// Bounds of what the screen asks for.
const (
	listLimit    = 200
	mentionLimit = 200
)

var keys = struct {
	Find, Open, Back, Timeline, Names, Mentions, Neighbours, Reload key.Binding
}{
	Find:       key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "find an entity by name or alias")),
	Open:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open: entity · name change's other name · mention's object (console) · neighbour")),
	Back:       key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc/backspace", "back to the entity before, or the list")),
	Timeline:   key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "measures per crawl (timeline)")),
	Names:      key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "names: label, aliases, proposed name changes")),
	Mentions:   key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mentions, latest first")),
	Neighbours: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "co-occurring entities (neighbours)")),
	Reload:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload")),
}

// Options configure the screen.
type Options struct {
	Client *api.Client
}

// pane is the part of an entity shown.
type pane int

const (
	timeline pane = iota
	names
	mentions
	neighbours
)

var paneNames = []string{"t timeline", "n names", "m mentions", "c neighbours"}

type listMsg struct {
	q    string
	hits []api.EntityHit
	err  error
}

type entityMsg struct {
	id  string
	e   api.Entity
	err error
}

// Model is the entity screen.
type Model struct {
	opts    Options
	q       string // the last search
	list    []api.EntityHit
	loaded  bool
	loading string // the entity asked for, "" when none
	err     error

	// cur is the entity shown, nil for the list; back the entities
	// opened before it, to return to.
	cur  *api.Entity
	back []string
	pane pane
	// links are the entity ids of the names pane's rows ("" where a row
	// leads nowhere).
	links []string

	grid   screen.Grid
	prompt crawlkit.Prompt

	width, height int
}

// New returns the screen; Init lists the most popular entities.
func New(o Options) *Model {
	return &Model{opts: o, prompt: crawlkit.NewPrompt("find an entity (name or alias): ")}
}

func (m *Model) Title() string { return "Entities" }
func (m *Model) Typing() bool  { return m.prompt.Active() }
func (m *Model) Init() tea.Cmd { return m.find("") }
func (m *Model) Busy() string  { return "" }

// Grid is the table shown.
func (m *Model) Grid() *screen.Grid { return &m.grid }

// Entity is the entity shown, nil on the list.
func (m *Model) Entity() *api.Entity { return m.cur }

func (m *Model) Keys() []key.Binding {
	k := keys
	return append([]key.Binding{k.Find, k.Open, k.Back, k.Timeline, k.Names, k.Mentions, k.Neighbours, k.Reload}, screen.GridHelp()...)
}

func (m *Model) find(q string) tea.Cmd {
	c := m.opts.Client
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		hits, err := c.FindEntities(ctx, q, listLimit)
		return listMsg{q: q, hits: hits, err: err}
	})
}

func (m *Model) open(id string) tea.Cmd {
	m.loading = id
	c := m.opts.Client
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		e, err := c.Entity(ctx, id, mentionLimit)
		return entityMsg{id: id, e: e, err: err}
	})
}

func (m *Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case screen.SizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.render(false)
	case screen.FilterMsg:
		m.grid.SetFilter(msg.Text)
	case listMsg:
		m.loaded, m.err = true, msg.err
		if msg.err == nil {
			m.q, m.list = msg.q, msg.hits
			if m.cur == nil {
				m.render(true)
			}
		}
	case entityMsg:
		if msg.id != m.loading {
			return m, nil // an answer overtaken by another enter
		}
		m.loading = ""
		if msg.err != nil {
			if len(m.back) > 0 && m.back[len(m.back)-1] == msg.id {
				m.back = m.back[:len(m.back)-1]
			}
			return m, screen.Status("entity "+msg.id+": "+crawlkit.Words(msg.err), true)
		}
		same := m.cur != nil && m.cur.ID == msg.id
		m.cur, m.err = &msg.e, nil
		if !same {
			m.pane = timeline
		}
		m.render(!same)
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.prompt.Active() {
		return m.prompt.Key(msg, func(q string) tea.Cmd {
			m.back, m.cur = nil, nil
			return m.find(strings.TrimSpace(q))
		})
	}
	k := keys
	switch {
	case key.Matches(msg, k.Find):
		return m.prompt.Open()
	case key.Matches(msg, k.Reload):
		if m.cur != nil {
			return m.open(m.cur.ID)
		}
		return m.find(m.q)
	case key.Matches(msg, k.Back):
		if m.cur == nil {
			return nil
		}
		if n := len(m.back); n > 0 {
			id := m.back[n-1]
			m.back = m.back[:n-1]
			return m.open(id)
		}
		m.cur = nil
		m.render(true)
		return nil
	case key.Matches(msg, k.Open):
		return m.enter()
	case m.cur != nil && key.Matches(msg, k.Timeline, k.Names, k.Mentions, k.Neighbours):
		switch {
		case key.Matches(msg, k.Timeline):
			m.pane = timeline
		case key.Matches(msg, k.Names):
			m.pane = names
		case key.Matches(msg, k.Mentions):
			m.pane = mentions
		default:
			m.pane = neighbours
		}
		m.render(true)
		return nil
	}
	m.grid.Update(msg)
	return nil
}

// goTo opens entity id, remembering the one shown to come back to.
func (m *Model) goTo(id string) tea.Cmd {
	if id == "" {
		return nil
	}
	if m.cur != nil {
		m.back = append(m.back, m.cur.ID)
	}
	return m.open(id)
}

// enter opens what the selected row leads to.
func (m *Model) enter() tea.Cmd {
	i, ok := m.grid.SelectedIndex()
	if !ok {
		return nil
	}
	if m.cur == nil {
		if i < len(m.list) {
			return m.goTo(m.list[i].ID)
		}
		return nil
	}
	e := m.cur
	switch m.pane {
	case names:
		if i < len(m.links) {
			return m.goTo(m.links[i])
		}
	case neighbours:
		if i < len(e.Neighbours) {
			return m.goTo(e.Neighbours[i].ID)
		}
	case mentions:
		if i < len(e.Mentions) {
			mn := e.Mentions[i]
			q := archive.HistoryQuery(mn.Object)
			return tea.Batch(screen.Status(mentionWhere(mn), false),
				func() tea.Msg { return screen.OpenQueryMsg{Query: q, Run: true} })
		}
	}
	return nil
}

// mentionWhere says where a mention was archived: its object, URL and
// capture.
func mentionWhere(mn api.EntityMention) string {
	s := mn.Object
	if mn.URL != "" && mn.URL != mn.Object {
		s += " on " + mn.URL
	}
	s += " · capture " + mn.Capture
	if !mn.Time.IsZero() {
		s += " at " + mn.Time.UTC().Format("2006-01-02 15:04:05Z")
	}
	return s + " · crawl " + mn.Crawl
}

// signed writes a score in −1…1 with its sign.
func signed(x float64) string { return fmt.Sprintf("%+.2f", x) }

// render fills the grid for the list or the entity's pane; fresh puts
// the cursor on the first row.
func (m *Model) render(fresh bool) {
	var head []string
	var rows [][]string
	m.links = nil
	switch {
	case m.cur == nil:
		head = []string{"entity", "kind", "popularity", "crawls", "id"}
		for _, h := range m.list {
			rows = append(rows, []string{h.Label, h.Kind, strconv.FormatInt(h.Popularity, 10), strconv.Itoa(h.Crawls), h.ID})
		}
		m.grid.SetFull(-1) // none
	case m.pane == timeline:
		head = []string{"crawl", "started", "popularity", "mentions", "attitude", "sentimentality", "controversiality", "connectedness"}
		for _, x := range m.cur.Measures {
			rows = append(rows, []string{x.Crawl, x.Time.UTC().Format("2006-01-02 15:04"), strconv.FormatInt(x.Popularity, 10),
				strconv.FormatInt(x.Mentions, 10), signed(x.Attitude), fmt.Sprintf("%.2f", x.Sentimentality),
				fmt.Sprintf("%.2f", x.Controversiality), strconv.FormatInt(x.Connectedness, 10)})
		}
		m.grid.SetFull(-1) // none
	case m.pane == names:
		head = []string{"name", "as", "crawl", "score", "evidence"}
		e := m.cur
		add := func(link string, cells ...string) {
			rows = append(rows, cells)
			m.links = append(m.links, link)
		}
		add("", e.Label, "label", "", "", "")
		for _, a := range e.Aliases {
			add("", a, "alias", "", "", "")
		}
		for _, s := range e.SameAs {
			add("", s, "same as", "", "", "")
		}
		for _, c := range e.NameChanges {
			other, as := c.Later, "renamed to (proposed)"
			if c.Later.ID == e.ID {
				other, as = c.Former, "renamed from (proposed)"
			}
			crawl := c.Crawl
			if c.Previous != "" {
				crawl = c.Previous + " → " + c.Crawl
			}
			add(other.ID, other.Label, as, crawl, fmt.Sprintf("%.2f", c.Score), strings.Join(c.Evidence, " · "))
		}
		m.grid.SetFull(4)
	case m.pane == mentions:
		head = []string{"captured", "crawl", "tone", "surface", "sentence"}
		for _, mn := range m.cur.Mentions {
			at, tone := "", ""
			if !mn.Time.IsZero() {
				at = mn.Time.UTC().Format("2006-01-02 15:04")
			}
			if mn.Sentiment != nil {
				tone = signed(*mn.Sentiment)
			}
			rows = append(rows, []string{at, mn.Crawl, tone, mn.Surface, mn.Sentence})
		}
		m.grid.SetFull(4)
	default:
		head = []string{"entity", "shared texts", "crawls", "weight", "id"}
		for _, n := range m.cur.Neighbours {
			rows = append(rows, []string{n.Label, strconv.FormatInt(n.Shared, 10), strconv.Itoa(n.Crawls), fmt.Sprintf("%.2f", n.Weight), n.ID})
		}
		m.grid.SetFull(-1) // none
	}
	m.grid.SetTable(head, rows)
	if fresh {
		m.grid.Select(0)
	}
	m.grid.SetSize(m.width, m.height-m.headerLines())
}

// headerLines is how many lines the view puts above the grid.
func (m *Model) headerLines() int {
	switch {
	case m.cur == nil:
		return 2
	case m.pane == timeline:
		return 3 + len(sparkRows) + 1
	}
	return 3
}

// sparkRows are the measures drawn as sparklines, each with its scale.
var sparkRows = []struct {
	name   string
	value  func(api.EntityMeasures) float64
	lo, hi float64 // 0, 0: scaled to the largest value
	format func(float64) string
}{
	{"popularity", func(x api.EntityMeasures) float64 { return float64(x.Popularity) }, 0, 0, func(v float64) string { return strconv.Itoa(int(v)) }},
	{"attitude", func(x api.EntityMeasures) float64 { return x.Attitude }, -1, 1, signed},
	{"sentimentality", func(x api.EntityMeasures) float64 { return x.Sentimentality }, 0, 1, func(v float64) string { return fmt.Sprintf("%.2f", v) }},
	{"controversiality", func(x api.EntityMeasures) float64 { return x.Controversiality }, 0, 1, func(v float64) string { return fmt.Sprintf("%.2f", v) }},
	{"connectedness", func(x api.EntityMeasures) float64 { return float64(x.Connectedness) }, 0, 0, func(v float64) string { return strconv.Itoa(int(v)) }},
}

// spark draws values between lo and hi (lo = hi = 0: between 0 and the
// largest) as block characters, one per crawl, the last width.
func spark(vs []float64, lo, hi float64, width int) string {
	const bars = "▁▂▃▄▅▆▇█"
	runes := []rune(bars)
	if len(vs) > width {
		vs = vs[len(vs)-width:]
	}
	if lo == 0 && hi == 0 {
		for _, v := range vs {
			hi = max(hi, v)
		}
	}
	var b strings.Builder
	for _, v := range vs {
		i := 0
		if hi > lo {
			i = int(math.Round((v - lo) / (hi - lo) * float64(len(runes)-1)))
		}
		b.WriteRune(runes[min(max(i, 0), len(runes)-1)])
	}
	return b.String()
}

// sparklines draws the timeline's measures, first and last values beside.
func (m *Model) sparklines() string {
	ms := m.cur.Measures
	w := max(m.width-40, 8)
	var b strings.Builder
	for _, r := range sparkRows {
		vs := make([]float64, len(ms))
		for i, x := range ms {
			vs[i] = r.value(x)
		}
		line := fmt.Sprintf("%-17s %s", r.name, spark(vs, r.lo, r.hi, w))
		if len(vs) > 0 {
			line += fmt.Sprintf("  %s → %s", r.format(vs[max(len(vs)-w, 0)]), r.format(vs[len(vs)-1]))
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

func (m *Model) View() string {
	var info string
	switch {
	case m.prompt.Active():
		info = m.prompt.View()
	case m.err != nil:
		info = screen.Error.Render("✗ " + crawlkit.Words(m.err))
	case !m.loaded:
		info = screen.Accent.Render("loading…")
	case m.loading != "":
		info = screen.Accent.Render("opening " + m.loading + "…")
	case m.cur != nil:
		info = m.entityInfo()
	case len(m.list) == 0 && m.q == "":
		info = screen.Faint.Render("no entities yet · mneme analyze --crawl ID (or POST /api/analyses) finds them in a crawl's texts")
	case len(m.list) == 0:
		info = screen.Faint.Render(fmt.Sprintf("no entity named %q · f finds another", m.q))
	case m.q == "":
		info = screen.Faint.Render(fmt.Sprintf("%d most popular entities · f find · enter open", len(m.list)))
	default:
		info = screen.Faint.Render(fmt.Sprintf("%d entities named %q · f find · enter open", len(m.list), m.q))
	}
	if m.cur == nil {
		return screen.Title.Render("Entities") + "\n" + ansi.Truncate(info, m.width, "…") + "\n" + m.grid.View()
	}
	e := m.cur
	var tabs []string
	for p, name := range paneNames {
		n := ""
		switch pane(p) {
		case names:
			n = fmt.Sprintf(" %d", 1+len(e.Aliases)+len(e.SameAs)+len(e.NameChanges))
		case mentions:
			n = fmt.Sprintf(" %d/%d", len(e.Mentions), e.MentionsAll)
		case neighbours:
			n = fmt.Sprintf(" %d", len(e.Neighbours))
		}
		t := " " + name + n + " "
		if pane(p) == m.pane {
			t = screen.Selected.Render(t)
		}
		tabs = append(tabs, t)
	}
	var b strings.Builder
	b.WriteString(screen.Title.Render(fmt.Sprintf("Entity · %s (%s)", e.Label, e.Kind)) + "\n")
	b.WriteString(ansi.Truncate(info, m.width, "…") + "\n")
	b.WriteString(ansi.Truncate(strings.Join(tabs, " "), m.width, "…") + "\n")
	if m.pane == timeline {
		b.WriteString(crawlkit.Clip(m.sparklines(), m.width) + "\n")
	}
	return b.String() + m.grid.View()
}

// entityInfo is the line under the entity's name: its IRI and counts, or
// where the selected mention was archived.
func (m *Model) entityInfo() string {
	e := m.cur
	if m.pane == mentions {
		if i, ok := m.grid.SelectedIndex(); ok && i < len(e.Mentions) {
			return screen.Accent.Render("› " + mentionWhere(e.Mentions[i]))
		}
	}
	s := fmt.Sprintf("%s · popularity %d over %d crawls · %d mentions", e.IRI, e.Popularity, e.Crawls, e.MentionsAll)
	if len(e.Aliases) > 0 {
		s += " · also " + strings.Join(e.Aliases, ", ")
	}
	return screen.Faint.Render(s)
}
