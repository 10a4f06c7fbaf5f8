package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/tui/screen"
)

// shellKeys are the bindings every screen shares.
var shellKeys = struct {
	Quit, QuitQ, Help, HelpF1, CloseHelp, Next, Prev, Filter, Number key.Binding
}{
	Quit:      key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("q/ctrl+c", "quit (asks when work would stop)")),
	QuitQ:     key.NewBinding(key.WithKeys("q")),
	Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?/F1", "this help")),
	HelpF1:    key.NewBinding(key.WithKeys("f1")),
	CloseHelp: key.NewBinding(key.WithKeys("esc", "?", "f1", "enter")),
	Next:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab/shift+tab", "next/previous screen")),
	Prev:      key.NewBinding(key.WithKeys("shift+tab")),
	Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter rows (enter keeps, esc clears)")),
	Number:    key.NewBinding(key.WithKeys("1"), key.WithHelp("1-9", "go to screen")),
}

// helpView is the overlay listing the active screen's keys and the
// shell's, centred in the body.
func (a *App) helpView() string {
	s := a.screens[a.active]
	var b strings.Builder
	b.WriteString(screen.Title.Render(s.Title()+" keys") + "\n")
	section := func(keys []key.Binding) {
		for _, k := range keys {
			h := k.Help()
			if h.Key == "" {
				continue
			}
			b.WriteString(screen.Key.Render(pad(h.Key, 15)) + " " + h.Desc + "\n")
		}
	}
	section(s.Keys())
	b.WriteString(screen.Title.Render("everywhere") + "\n")
	k := shellKeys
	section([]key.Binding{k.Help, k.Next, k.Number, k.Filter, k.Quit})
	box := screen.Box.MaxWidth(a.width).Render(strings.TrimSuffix(b.String(), "\n"))
	return lipgloss.Place(a.width, a.bodyHeight(), lipgloss.Center, lipgloss.Center, box)
}

func pad(s string, w int) string { return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0)) }
