package screen

import "charm.land/lipgloss/v2"

// The palette is the 16 ANSI colours, which every colour terminal maps to
// its own theme, so the TUI reads on dark and light backgrounds alike.
// Bubble Tea downsamples further for the terminal it finds (none at all
// for TERM=dumb or NO_COLOR), so every style also differs from plain
// text by bold, reverse or faint where the difference matters.
// OKColor is the colour of things going well: running crawls, progress.
var OKColor = lipgloss.Green

var (
	Title    = lipgloss.NewStyle().Bold(true)
	Faint    = lipgloss.NewStyle().Faint(true)
	Selected = lipgloss.NewStyle().Reverse(true)
	Header   = lipgloss.NewStyle().Bold(true)
	Error    = lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true)
	OK       = lipgloss.NewStyle().Foreground(OKColor)
	Accent   = lipgloss.NewStyle().Foreground(lipgloss.Cyan)
	Key      = lipgloss.NewStyle().Foreground(lipgloss.Yellow).Bold(true)
	Box      = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
)
