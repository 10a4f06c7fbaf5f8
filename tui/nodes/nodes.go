// Package nodes is the TUI's cluster view, for a TUI attached to a
// crawler node (`mneme node`): the cluster as that node sees it, read
// from the control API (/api/cluster) every poll. Per node: live,
// leaving or left (a node that left the live set since the screen
// opened stays listed as left), its last heartbeat, the pay-level
// domains it owns (enter lists them), its queue, pages/s, the URLs it
// forwarded and received, and the IPs it holds; i shows the cluster's IP
// registry. p and r pause and resume the crawl on every node of the
// cluster (the pause is the cluster's: any node's TUI sets it, every node
// follows); each node's row says whether it is paused, or still pausing
// while its last fetches finish.
package nodes

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/tui/crawlkit"
	"github.com/mneme-archive/mneme/tui/screen"
)

var keys = struct {
	Domains, Claims, Back, Pause, Resume key.Binding
}{
	Domains: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "the node's domains, most URLs queued first")),
	Claims:  key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "the IP registry: which node holds which IP")),
	Back:    key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc/backspace", "back to the nodes")),
	Pause:   key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause the crawl on every node of the cluster")),
	Resume:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "resume the crawl on every node of the cluster")),
}

// Options configure the screen.
type Options struct {
	Client *api.Client
	// Interval between polls (default one second).
	Interval time.Duration
}

type clusterMsg struct {
	gen int
	c   api.Cluster
	at  time.Time
	err error
}

type tickMsg struct{ gen int }

// view is what the table shows.
type view int

const (
	nodesView view = iota
	domainsView
	claimsView
)

// Model is the cluster view.
type Model struct {
	opts   Options
	c      api.Cluster
	at     time.Time // when c was read
	loaded bool
	err    error
	gen    int

	// seen are the nodes met since the screen opened, by name: those no
	// longer live are shown as left, with their last heartbeat.
	seen map[string]api.Node
	rows []api.Node // the table's nodes, live first then left, by name

	view view
	node string // the node whose domains are shown
	grid screen.Grid

	width, height int
}

// New returns the screen; Init starts polling.
func New(o Options) *Model {
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	return &Model{opts: o, gen: 1, seen: map[string]api.Node{}}
}

func (m *Model) Title() string { return "Cluster" }
func (m *Model) Typing() bool  { return false }
func (m *Model) Init() tea.Cmd { return m.poll(m.gen) }
func (m *Model) Busy() string  { return "" }

func (m *Model) Keys() []key.Binding {
	k := keys
	return append([]key.Binding{k.Domains, k.Claims, k.Back, k.Pause, k.Resume}, screen.GridHelp()[:3]...)
}

func (m *Model) poll(gen int) tea.Cmd {
	c := m.opts.Client
	return crawlkit.Call(func(ctx context.Context) tea.Msg {
		st, err := c.ClusterStatus(ctx)
		return clusterMsg{gen: gen, c: st, at: time.Now(), err: err}
	})
}

func (m *Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case screen.SizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.render()
	case screen.FilterMsg:
		m.grid.SetFilter(msg.Text)
	case clusterMsg:
		m.loaded, m.err = true, msg.err
		if msg.err == nil {
			m.c, m.at = msg.c, msg.at
			m.merge()
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
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

// live reports whether a node is in the last answer's live set.
func (m *Model) live(name string) bool {
	for _, n := range m.c.Nodes {
		if n.Name == name {
			return true
		}
	}
	return false
}

// merge records the live nodes and orders the table: live nodes by name,
// then the nodes that left, by name.
func (m *Model) merge() {
	for _, n := range m.c.Nodes {
		m.seen[n.Name] = n
	}
	m.rows = m.rows[:0]
	for _, n := range m.seen {
		m.rows = append(m.rows, n)
	}
	sort.Slice(m.rows, func(i, j int) bool {
		a, b := m.live(m.rows[i].Name), m.live(m.rows[j].Name)
		if a != b {
			return a
		}
		return m.rows[i].Name < m.rows[j].Name
	})
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := keys
	switch {
	case key.Matches(msg, k.Back) && m.view != nodesView:
		m.view = nodesView
		m.render()
		m.grid.Select(m.index(m.node))
		return nil
	case key.Matches(msg, k.Claims) && m.view != claimsView:
		m.view = claimsView
		m.render()
		m.grid.Select(0)
		return nil
	case key.Matches(msg, k.Domains) && m.view == nodesView:
		if i, ok := m.grid.SelectedIndex(); ok && i < len(m.rows) {
			m.view, m.node = domainsView, m.rows[i].Name
			m.render()
			m.grid.Select(0)
		}
		return nil
	case key.Matches(msg, k.Pause), key.Matches(msg, k.Resume):
		if m.c.Crawl == "" {
			return screen.Status("no crawl to steer: the server is not a crawler node", true)
		}
		action := "pause"
		if key.Matches(msg, k.Resume) {
			action = "resume"
		}
		return crawlkit.Action(m.opts.Client, m.c.Crawl, action)
	}
	m.grid.Update(msg)
	return nil
}

func (m *Model) index(name string) int {
	for i, n := range m.rows {
		if n.Name == name {
			return i
		}
	}
	return 0
}

// state names a node's standing in the cluster.
func (m *Model) state(n api.Node) string {
	switch {
	case !m.live(n.Name):
		return screen.Error.Render("left")
	case n.Leaving:
		return screen.Accent.Render("leaving")
	case n.PausedHere:
		return screen.Accent.Render("live, paused here")
	case n.Paused && n.InFlight > 0:
		return screen.Accent.Render("live, pausing") // its last fetches finish
	case n.Paused:
		return screen.Accent.Render("live, paused")
	case n.Idle:
		return "live, idle"
	}
	return screen.OK.Render("live")
}

// ago says how long before the answer a heartbeat was written.
func (m *Model) ago(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return max(m.at.Sub(t), 0).Round(100*time.Millisecond).String() + " ago"
}

// pauseInfo says whether the crawl is paused in the cluster, and by whom.
func pauseInfo(p api.Pause) string {
	if !p.Paused {
		return "running"
	}
	return screen.Accent.Render(fmt.Sprintf("paused by %s at %s", p.By, p.At.Local().Format("15:04:05")))
}

func count(n int64) string { return strconv.FormatInt(n, 10) }

// render fills the table of the view shown.
func (m *Model) render() {
	switch m.view {
	case domainsView:
		n := m.seen[m.node]
		rows := make([][]string, len(n.TopDomains))
		for i, d := range n.TopDomains {
			rows[i] = []string{d.Domain, strconv.Itoa(d.Hosts), count(d.Queued)}
		}
		m.grid.SetTable([]string{"domain", "host queues", "queued"}, rows)
	case claimsView:
		rows := make([][]string, len(m.c.Claims))
		for i, c := range m.c.Claims {
			st := "fetching"
			if !c.Fetching {
				st = "resting until " + c.Until.Local().Format("15:04:05.0")
			}
			rows[i] = []string{c.IP, c.Node, st}
		}
		m.grid.SetTable([]string{"IP", "held by", "state"}, rows)
	default:
		rows := make([][]string, len(m.rows))
		for i, n := range m.rows {
			name := n.Name
			if name == m.c.Self {
				name += " *"
			}
			rows[i] = []string{name, m.state(n), m.ago(n.Beat), count(n.Domains), count(n.Queued), count(n.InFlight),
				count(n.Fetched), crawlkit.Rate(n.PagesPerSecond), count(n.Forwarded), count(n.Received), count(n.IPClaims)}
		}
		m.grid.SetTable([]string{"node", "state", "heartbeat", "domains", "queued", "in flight", "fetched", "pages/s", "forwarded", "received", "IPs"}, rows)
	}
	m.grid.SetSize(m.width, m.height-2)
}

func (m *Model) View() string {
	var info string
	switch {
	case m.err != nil:
		info = screen.Error.Render("✗ " + crawlkit.Words(m.err))
		var ae *api.APIError
		if errors.As(m.err, &ae) && ae.Code == http.StatusNotFound {
			info = screen.Faint.Render("this server is not a crawler node: mneme node serves the cluster view (tui --connect the address it prints)")
		}
	case !m.loaded:
		info = screen.Accent.Render("loading…")
	case m.view == domainsView:
		n := m.seen[m.node]
		info = screen.Faint.Render(fmt.Sprintf("domains of %s: %d owned, the %d with the most URLs queued · esc back", m.node, n.Domains, len(n.TopDomains)))
	case m.view == claimsView:
		info = screen.Faint.Render(fmt.Sprintf("IP registry: %d IPs claimed (one fetch per IP in the whole cluster) · esc back", len(m.c.Claims)))
	default:
		done := ""
		if m.c.Done {
			done = " · crawl done"
		}
		info = screen.Faint.Render(fmt.Sprintf("crawl %s · %s · attached to %s (*) · %s live · %d forwarded batches pending%s · enter domains · i IPs · p/r pause/resume all",
			m.c.Crawl, pauseInfo(m.c.Pause), m.c.Self, crawlkit.Plural(len(m.c.Nodes), "node", "nodes"), m.c.Pending, done))
	}
	return screen.Title.Render("Cluster") + "\n" + ansi.Truncate(info, m.width, "…") + "\n" + m.grid.View()
}
