// Package screen is the contract between the TUI's shell and its
// screens: the Screen interface, the messages they exchange, the shared
// styles, and the widgets more than one screen shows (the results grid).
package screen

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Screen is one screen of the TUI. The shell sends it key presses while
// it is shown and every other message always (each screen ignores what
// is not its own), renders its View between the tab bar and the status
// bar, and asks it about the keys it takes.
type Screen interface {
	// Title names the screen in the tab bar.
	Title() string
	Init() tea.Cmd
	Update(tea.Msg) (Screen, tea.Cmd)
	// View renders the screen in the size of the last SizeMsg.
	View() string
	// Keys are the screen's bindings, for the help overlay.
	Keys() []key.Binding
	// Typing reports that a text field has the focus: then the shell
	// leaves printable keys (q, ?, /, digits) to the screen.
	Typing() bool
	// Busy describes the work quitting would interrupt, "" when none.
	Busy() string
}

// SizeMsg is the area a screen has: the window less the shell's bars.
type SizeMsg struct{ Width, Height int }

// FilterMsg sets the screen's filter (the shell's `/` prompt); "" clears
// it.
type FilterMsg struct{ Text string }

// OpenQueryMsg asks the shell to show the SPARQL console with this query
// in its editor, and run it when Run is set.
type OpenQueryMsg struct {
	Query string
	Run   bool
}

// CrawlMsg selects a crawl on the screens that show one crawl, and
// shows the screen titled Show ("": the screen shown stays).
type CrawlMsg struct{ ID, Show string }

// StatusMsg puts a line in the status bar; Err marks it as a failure.
type StatusMsg struct {
	Text string
	Err  bool
}

// Status returns a command that shows a line in the status bar.
func Status(text string, err bool) tea.Cmd {
	return func() tea.Msg { return StatusMsg{Text: text, Err: err} }
}
