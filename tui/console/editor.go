package console

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/sparql/parse"
	"github.com/mneme-archive/mneme/tui/screen"
)

// newEditor is a multi-line editor whose ctrl+p and ctrl+n browse the
// history rather than move between lines (the arrows still do), and
// whose selection shows a syntax error's position.
func newEditor() textarea.Model {
	ta := textarea.New()
	ta.Placeholder = "SPARQL query — ctrl+r runs it"
	ta.ShowLineNumbers = true
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.KeyMap.LinePrevious = key.NewBinding(key.WithKeys("up"))
	ta.KeyMap.LineNext = key.NewBinding(key.WithKeys("down"))
	st := textarea.DefaultStyles(true)
	st.Cursor.Blink = false
	for _, s := range []*textarea.StyleState{&st.Focused, &st.Blurred} {
		s.CursorLine = s.CursorLine.UnsetBackground()
		s.Selection = screen.Error.Reverse(true)
	}
	ta.SetStyles(st)
	return ta
}

// markError moves the editor's cursor to a syntax error and selects the
// character there.
func markError(ta *textarea.Model, se *parse.Error) {
	ta.MoveToBegin()
	for i := 0; ta.Line() < se.Line-1 && i < 4*ta.LineCount()+ta.Length(); i++ {
		ta.CursorDown()
	}
	ta.SetCursorColumn(se.Col - 1)
	*ta, _ = ta.Update(tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModShift})
}

// errorSnippet shows the query line of a syntax error with the
// character at fault highlighted and a caret under it, which reads
// without colour too.
func errorSnippet(query string, se *parse.Error, width int) string {
	lines := strings.Split(query, "\n")
	if se.Line < 1 || se.Line > len(lines) {
		return ""
	}
	line := []rune(lines[se.Line-1])
	col := min(max(se.Col-1, 0), len(line))
	at := " "
	if col < len(line) {
		at = string(line[col])
	}
	rest := ""
	if col < len(line) {
		rest = string(line[col+1:])
	}
	gutter := screen.Faint.Render(padLeft(se.Line, 4) + " │ ")
	text := gutter + string(line[:col]) + screen.Error.Reverse(true).Render(at) + rest
	caret := strings.Repeat(" ", 7+ansi.StringWidth(string(line[:col]))) + screen.Error.Render("^")
	return ansi.Truncate(text, width, "…") + "\n" + ansi.Truncate(caret, width, "")
}

func padLeft(n, w int) string {
	s := strconv.Itoa(n)
	return strings.Repeat(" ", max(w-len(s), 0)) + s
}
