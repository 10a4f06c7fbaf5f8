// Package tui is mneme's terminal user interface: a shell of screens
// (crawls, crawl detail, frontier, review of learned patterns, the SPARQL
// console, the archive browser, social campaigns, entities, the cluster of
// crawler nodes) over a `mneme serve` reached over HTTP:
// its SPARQL endpoint (package tui/backend) and its control API (the
// client of package control/api). The TUI never opens a store or runs a
// crawl itself (internal/layers tests it).
// The shell switches screens (tab, number keys), shows each screen's
// keys (? or F1), filters (/), keeps a status bar, and asks before
// quitting when quitting would interrupt work. Screens live in
// sub-packages and talk to the shell through package screen.
package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/tui/screen"
)

// App is the shell's model.
type App struct {
	screens []screen.Screen
	active  int
	console int // index of the SPARQL console, which OpenQueryMsg shows
	source  string

	width, height int
	help          bool
	filtering     bool
	filter        textinput.Model
	confirm       string // why quitting needs a confirmation, while asking
	status        string
	statusErr     bool
	quitting      bool
}

// NewApp assembles the shell; console is the index of the SPARQL console
// among screens, source names the backend in the tab bar.
func NewApp(source string, console int, screens ...screen.Screen) *App {
	f := textinput.New()
	f.Prompt = "/"
	return &App{screens: screens, console: console, source: source, filter: f, width: 80, height: 24}
}

// SetStatus shows text in the status bar until the next status, e.g. a
// notice at start about what this session cannot do.
func (a *App) SetStatus(text string) { a.status, a.statusErr = text, false }

// Active is the index of the screen shown.
func (a *App) Active() int { return a.active }

// Screen returns the i-th screen.
func (a *App) Screen(i int) screen.Screen { return a.screens[i] }

// HelpShown, Confirming and Quitting expose the shell's state to tests
// and callers.
func (a *App) HelpShown() bool  { return a.help }
func (a *App) Confirming() bool { return a.confirm != "" }
func (a *App) Quitting() bool   { return a.quitting }

func (a *App) Init() tea.Cmd {
	cmds := make([]tea.Cmd, len(a.screens))
	for i, s := range a.screens {
		cmds[i] = s.Init()
	}
	return tea.Batch(cmds...)
}

func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		return a, a.broadcast(screen.SizeMsg{Width: a.width, Height: a.bodyHeight()})
	case screen.StatusMsg:
		a.status, a.statusErr = msg.Text, msg.Err
		return a, nil
	case screen.OpenQueryMsg:
		a.active = a.console
		return a, a.broadcast(msg)
	case screen.CrawlMsg:
		for i, s := range a.screens {
			if s.Title() == msg.Show {
				a.active = i
			}
		}
		return a, a.broadcast(msg)
	case tea.KeyPressMsg:
		return a, a.key(msg)
	}
	return a, a.broadcast(msg)
}

// broadcast gives a message to every screen: each acts on its own.
func (a *App) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, len(a.screens))
	for i, s := range a.screens {
		a.screens[i], cmds[i] = s.Update(msg)
	}
	return tea.Batch(cmds...)
}

func (a *App) bodyHeight() int { return max(a.height-2, 1) }

func (a *App) key(msg tea.KeyPressMsg) tea.Cmd {
	cur := a.screens[a.active]
	typing := cur.Typing()
	switch {
	case a.confirm != "":
		switch msg.String() {
		case "y", "Y", "ctrl+c":
			return a.quit()
		case "n", "N", "esc":
			a.confirm = ""
		}
		return nil
	case key.Matches(msg, shellKeys.Quit), !typing && !a.filtering && key.Matches(msg, shellKeys.QuitQ):
		if busy := a.busy(); busy != "" {
			a.confirm = busy
			return nil
		}
		return a.quit()
	case a.help:
		if key.Matches(msg, shellKeys.CloseHelp) {
			a.help = false
		}
		return nil
	case a.filtering:
		return a.filterKey(msg)
	case key.Matches(msg, shellKeys.HelpF1), !typing && key.Matches(msg, shellKeys.Help):
		a.help = true
		return nil
	case key.Matches(msg, shellKeys.Next):
		a.active = (a.active + 1) % len(a.screens)
		return nil
	case key.Matches(msg, shellKeys.Prev):
		a.active = (a.active + len(a.screens) - 1) % len(a.screens)
		return nil
	case !typing && key.Matches(msg, shellKeys.Filter):
		a.filtering = true
		return a.filter.Focus()
	case !typing && len(msg.Text) == 1 && msg.Text[0] >= '1' && msg.Text[0] <= '9':
		if i := int(msg.Text[0] - '1'); i < len(a.screens) {
			a.active = i
		}
		return nil
	}
	var cmd tea.Cmd
	a.screens[a.active], cmd = cur.Update(msg)
	return cmd
}

// filterKey edits the filter; every change reaches the screen at once.
func (a *App) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		a.filtering = false
		a.filter.Blur()
		return nil
	case "esc":
		a.filtering = false
		a.filter.Blur()
		a.filter.SetValue("")
		return a.sendActive(screen.FilterMsg{})
	}
	var cmd tea.Cmd
	a.filter, cmd = a.filter.Update(msg)
	return tea.Batch(cmd, a.sendActive(screen.FilterMsg{Text: a.filter.Value()}))
}

func (a *App) sendActive(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	a.screens[a.active], cmd = a.screens[a.active].Update(msg)
	return cmd
}

// busy joins what the screens would lose by quitting.
func (a *App) busy() string {
	var why []string
	for _, s := range a.screens {
		if b := s.Busy(); b != "" {
			why = append(why, b)
		}
	}
	return strings.Join(why, ", ")
}

func (a *App) quit() tea.Cmd {
	a.quitting = true
	return tea.Quit
}

func (a *App) View() tea.View {
	v := tea.NewView(a.render())
	v.AltScreen = true
	v.WindowTitle = "mneme — " + a.screens[a.active].Title()
	return v
}

// render lays out the tab bar, the body (exactly the body height, so
// nothing below moves) and the status bar.
func (a *App) render() string {
	if a.quitting {
		return ""
	}
	body := a.screens[a.active].View()
	if a.help {
		body = a.helpView()
	}
	return a.tabs() + "\n" + fit(body, a.width, a.bodyHeight()) + "\n" + a.statusBar()
}

func (a *App) tabs() string {
	var b strings.Builder
	b.WriteString(screen.Title.Render("mneme"))
	for i, s := range a.screens {
		t := fmt.Sprintf(" %d %s ", i+1, s.Title())
		if i == a.active {
			t = screen.Selected.Render(t)
		}
		b.WriteString(" " + t)
	}
	left := b.String()
	right := screen.Faint.Render(a.source)
	gap := a.width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		return ansi.Truncate(left, a.width, "…")
	}
	return left + strings.Repeat(" ", gap) + right
}

func (a *App) statusBar() string {
	var s string
	switch {
	case a.confirm != "":
		s = screen.Error.Render("Quit? " + a.confirm + " (y/n)")
	case a.filtering:
		s = a.filter.View()
	case a.status != "":
		s = a.status
		if a.statusErr {
			s = screen.Error.Render(s)
		}
	default:
		s = screen.Faint.Render("? help · tab/1-9 screens · / filter · q quit")
	}
	return ansi.Truncate(s, a.width, "…")
}

// fit pads or cuts s to exactly h lines no wider than w.
func fit(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "")
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
