// Package console is the TUI's SPARQL console: a multi-line editor with a
// history and saved queries, queries run in the background and cancelled
// with Esc, a results grid with paging, horizontal scrolling and a row
// detail, export to CSV, TSV or JSON, and syntax errors shown at their
// position in the editor.
package console

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/parse"
	"github.com/mneme-archive/mneme/tui/backend"
	"github.com/mneme-archive/mneme/tui/screen"
)

// Options configure the console.
type Options struct {
	Backend backend.Backend
	// HistoryFile keeps the queries run, across sessions.
	HistoryFile string
	// SavedDir holds the saved queries, one NAME.rq file each.
	SavedDir string
	// ExportDir is where export paths without a folder go.
	ExportDir string
}

// focus is the part of the console that takes keys.
type focus uint8

const (
	focusEditor focus = iota
	focusResults
	focusDetail
	focusPrompt
	focusSaved
)

// Model is the console screen.
type Model struct {
	opts   Options
	editor textarea.Model
	grid   screen.Grid
	focus  focus
	width  int
	height int

	// prompt asks for a file name (export) or a query name (save).
	input     textinput.Model
	exporting bool // the prompt is for an export path, not a name
	back      focus

	saved     []savedQuery
	savedGrid screen.Grid

	history []string
	histPos int    // index into history while browsing; len(history) when not
	draft   string // the editor's text before browsing began

	// The running job (query or export), cancelled by Esc.
	nextID  int
	jobID   int
	jobKind string
	cancel  context.CancelFunc

	// What the results area shows.
	shown     string // the query whose results these are
	ask       *bool
	truncated bool
	info      string
	failed    string
	synErr    *parse.Error
	synQuery  string
	filter    string
}

// New returns the console, the editor not yet focused so the shell's
// keys work at once; its Init loads the history.
func New(opts Options) *Model {
	m := &Model{opts: opts, editor: newEditor(), input: textinput.New(), focus: focusResults}
	m.info = "e edits the query · ctrl+r runs it · esc leaves the editor · ? help"
	return m
}

func (m *Model) Title() string { return "SPARQL" }

func (m *Model) Init() tea.Cmd { return loadHistoryCmd(m.opts.HistoryFile) }

func (m *Model) Keys() []key.Binding { return append(keyHelp(), screen.GridHelp()...) }

func (m *Model) Typing() bool { return m.focus == focusEditor || m.focus == focusPrompt }

func (m *Model) Busy() string {
	if m.cancel == nil {
		return ""
	}
	return "a " + m.jobKind + " is running"
}

// Query is the editor's text.
func (m *Model) Query() string { return m.editor.Value() }

// Running reports whether a query or an export is under way.
func (m *Model) Running() bool { return m.cancel != nil }

// Results are the rows shown (after the filter: Grid().Len()).
func (m *Model) Grid() *screen.Grid { return &m.grid }

// Info is the line under the editor: row count and timing, or the error.
func (m *Model) Info() string {
	if m.failed != "" {
		return m.failed
	}
	return m.info
}

// SyntaxError is the position of the last run's syntax error, if any.
func (m *Model) SyntaxError() *parse.Error { return m.synErr }

// Selection is the editor's selected text (the character of a syntax
// error after a failed run).
func (m *Model) Selection() string { return m.editor.SelectedText() }

// History is the queries run, oldest first.
func (m *Model) History() []string { return m.history }

func (m *Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case screen.SizeMsg:
		m.resize(msg.Width, msg.Height)
	case screen.FilterMsg:
		m.filter = msg.Text
		m.grid.SetFilter(msg.Text)
	case screen.OpenQueryMsg:
		m.setQuery(msg.Query)
		m.setFocus(focusEditor)
		if msg.Run {
			return m, m.run()
		}
	case historyMsg:
		m.history = append(msg.queries, m.history...)
		m.histPos = len(m.history)
		if msg.err != nil {
			return m, screen.Status("history: "+msg.err.Error(), true)
		}
	case savedMsg:
		return m, m.openSaved(msg)
	case queryDoneMsg:
		if msg.id == m.jobID {
			m.finishQuery(msg)
		}
	case exportDoneMsg:
		if msg.id == m.jobID {
			return m, m.finishExport(msg)
		}
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		if m.focus == focusEditor || m.focus == focusPrompt {
			return m, m.forward(msg)
		}
	}
	return m, nil
}

// forward hands a message to the focused text field.
func (m *Model) forward(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if m.focus == focusPrompt {
		m.input, cmd = m.input.Update(msg)
	} else {
		m.editor, cmd = m.editor.Update(msg)
	}
	return cmd
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.cancel != nil && key.Matches(msg, keys.Cancel) && m.focus != focusPrompt {
		m.cancel()
		return nil
	}
	switch m.focus {
	case focusPrompt:
		return m.promptKey(msg)
	case focusSaved:
		return m.savedKey(msg)
	case focusDetail:
		switch {
		case key.Matches(msg, keys.Back, keys.Enter):
			m.setFocus(focusResults)
		default:
			m.grid.Update(msg)
		}
		return nil
	}
	switch {
	case key.Matches(msg, keys.Run):
		return m.run()
	case key.Matches(msg, keys.Save):
		m.openPrompt(false, "save as: ", "")
		return nil
	case key.Matches(msg, keys.Open):
		return listSavedCmd(m.opts.SavedDir)
	}
	if m.focus == focusEditor {
		switch {
		case key.Matches(msg, keys.Cancel):
			m.setFocus(focusResults)
		case key.Matches(msg, keys.HistPrev):
			m.browse(-1)
		case key.Matches(msg, keys.HistNext):
			m.browse(+1)
		default:
			return m.forward(msg)
		}
		return nil
	}
	switch {
	case key.Matches(msg, keys.Edit):
		m.setFocus(focusEditor)
	case key.Matches(msg, keys.Detail):
		if _, ok := m.grid.Selected(); ok {
			m.setFocus(focusDetail)
		} else {
			m.setFocus(focusEditor)
		}
	case key.Matches(msg, keys.Export):
		if m.shown == "" {
			return screen.Status("nothing to export: run a query first", true)
		}
		m.openPrompt(true, "export to: ", "results.csv")
	default:
		m.grid.Update(msg)
	}
	return nil
}

func (m *Model) setFocus(f focus) {
	m.focus = f
	if f == focusEditor {
		m.editor.Focus()
	} else {
		m.editor.Blur()
	}
}

func (m *Model) setQuery(q string) {
	m.editor.SetValue(q)
	m.histPos = len(m.history)
}

// browse steps through the history; past the newest entry the draft
// comes back.
func (m *Model) browse(step int) {
	if len(m.history) == 0 {
		return
	}
	if m.histPos == len(m.history) {
		m.draft = m.editor.Value()
	}
	m.histPos = min(max(m.histPos+step, 0), len(m.history))
	if m.histPos == len(m.history) {
		m.editor.SetValue(m.draft)
		return
	}
	m.editor.SetValue(m.history[m.histPos])
}

// run starts the editor's query, cancelling any job under way.
func (m *Model) run() tea.Cmd {
	q := m.editor.Value()
	if strings.TrimSpace(q) == "" {
		return screen.Status("the editor is empty", true)
	}
	if m.cancel != nil {
		m.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.nextID++
	m.jobID, m.jobKind, m.cancel = m.nextID, "query", cancel
	m.failed, m.synErr = "", nil
	m.editor.ClearSelection()
	m.info = "running… (esc cancels)"
	var save tea.Cmd
	if len(m.history) == 0 || m.history[len(m.history)-1] != q {
		m.history = append(m.history, q)
		path := m.opts.HistoryFile
		save = func() tea.Msg {
			if err := appendHistory(path, q); err != nil {
				return screen.StatusMsg{Text: "history: " + err.Error(), Err: true}
			}
			return nil
		}
	}
	m.histPos = len(m.history)
	return tea.Batch(runQuery(ctx, m.opts.Backend, m.jobID, q), save)
}

func (m *Model) endJob() {
	m.cancel()
	m.cancel, m.jobKind = nil, ""
}

func (m *Model) finishQuery(msg queryDoneMsg) {
	m.endJob()
	var se *parse.Error
	switch {
	case errors.As(msg.err, &se):
		m.synErr, m.synQuery = se, msg.query
		m.failed = screen.Error.Render(fmt.Sprintf("✗ syntax error at line %d, column %d: %s", se.Line, se.Col, se.Msg))
		m.setFocus(focusEditor)
		markError(&m.editor, se)
		return
	case errors.Is(msg.err, context.Canceled):
		m.failed = screen.Error.Render("✗ cancelled after " + duration(msg.elapsed))
		return
	case msg.err != nil:
		m.failed = screen.Error.Render("✗ " + msg.err.Error())
		return
	}
	m.shown, m.truncated = msg.query, msg.truncated
	m.ask = nil
	if msg.ask {
		m.ask = &msg.answer
		m.info = fmt.Sprintf("ASK → %v · %s", msg.answer, duration(msg.elapsed))
		m.grid.SetData(nil, nil)
		return
	}
	m.grid.SetData(msg.vars, msg.rows)
	m.grid.SetFilter(m.filter)
	rows := plural(len(msg.rows), "row")
	if msg.truncated {
		rows = fmt.Sprintf("first %d rows shown (export writes all)", len(msg.rows))
	}
	m.info = fmt.Sprintf("%s · %s", rows, duration(msg.elapsed))
	if len(msg.rows) > 0 && m.focus == focusEditor {
		m.setFocus(focusResults)
	}
}

func (m *Model) finishExport(msg exportDoneMsg) tea.Cmd {
	m.endJob()
	if msg.err != nil {
		m.failed = screen.Error.Render("✗ export: " + msg.err.Error())
		return nil
	}
	m.failed = ""
	text := fmt.Sprintf("exported %s to %s in %s", plural(msg.rows, "row"), msg.path, duration(msg.elapsed))
	return screen.Status(text, false)
}

func (m *Model) openPrompt(export bool, prompt, value string) {
	m.back = m.focus
	m.exporting = export
	m.input.Prompt = prompt
	m.input.SetValue(value)
	m.input.CursorEnd()
	m.editor.Blur()
	m.focus = focusPrompt
	m.input.Focus()
}

func (m *Model) promptKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, keys.Back):
		m.input.Blur()
		m.setFocus(m.back)
		return nil
	case key.Matches(msg, keys.Enter):
		m.input.Blur()
		m.setFocus(m.back)
		v := strings.TrimSpace(m.input.Value())
		if m.exporting {
			return m.startExport(v)
		}
		return m.save(v)
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return cmd
}

func (m *Model) startExport(path string) tea.Cmd {
	if path == "" {
		return screen.Status("export: no file name", true)
	}
	if !filepath.IsAbs(path) && m.opts.ExportDir != "" {
		path = filepath.Join(m.opts.ExportDir, path)
	}
	if m.cancel != nil {
		m.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.nextID++
	m.jobID, m.jobKind, m.cancel = m.nextID, "export", cancel
	return exportQuery(ctx, m.opts.Backend, m.jobID, m.shown, path)
}

func (m *Model) save(name string) tea.Cmd {
	dir, q := m.opts.SavedDir, m.editor.Value()
	return func() tea.Msg {
		p, err := saveQuery(dir, name, q)
		if err != nil {
			return screen.StatusMsg{Text: "save: " + err.Error(), Err: true}
		}
		return screen.StatusMsg{Text: "saved " + p}
	}
}

func (m *Model) openSaved(msg savedMsg) tea.Cmd {
	if msg.err != nil {
		return screen.Status("saved queries: "+msg.err.Error(), true)
	}
	if len(msg.queries) == 0 {
		return screen.Status("no saved queries in "+m.opts.SavedDir+" (ctrl+s saves one)", true)
	}
	m.saved = msg.queries
	rows := make([][]rdf.Term, len(msg.queries))
	for i, s := range msg.queries {
		first, _, _ := strings.Cut(strings.TrimSpace(s.query), "\n")
		rows[i] = []rdf.Term{rdf.String(s.name), rdf.String(first)}
	}
	m.savedGrid.SetData([]string{"saved query", "text"}, rows)
	m.savedGrid.SetSize(m.width, m.gridHeight())
	if m.focus != focusSaved {
		m.back = m.focus
	}
	m.editor.Blur()
	m.focus = focusSaved
	return nil
}

func (m *Model) savedKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, keys.Back):
		m.setFocus(m.back)
	case key.Matches(msg, keys.Enter):
		if row, ok := m.savedGrid.Selected(); ok {
			for _, s := range m.saved {
				if s.name == row[0].Value {
					m.setQuery(s.query)
				}
			}
		}
		m.setFocus(focusEditor)
	default:
		m.savedGrid.Update(msg)
	}
	return nil
}

func (m *Model) editorHeight() int { return min(max(m.height/3, 3), 10) }

func (m *Model) gridHeight() int { return max(m.height-m.editorHeight()-1, 2) }

func (m *Model) resize(w, h int) {
	m.width, m.height = w, h
	m.editor.SetWidth(w)
	m.editor.SetHeight(m.editorHeight())
	m.input.SetWidth(max(w-20, 10))
	m.grid.SetSize(w, m.gridHeight())
	m.savedGrid.SetSize(w, m.gridHeight())
}

func (m *Model) View() string {
	var info string
	switch {
	case m.focus == focusPrompt:
		info = m.input.View()
	case m.cancel != nil:
		info = screen.Accent.Render("⟳ " + m.jobKind + " running… (esc cancels)")
	default:
		info = m.Info()
		if m.filter != "" && m.shown != "" {
			info += screen.Faint.Render(fmt.Sprintf(" · filter %q: %d of %d", m.filter, m.grid.Len(), m.grid.Total()))
		}
	}
	body := m.body()
	return stack(m.editor.View(), ansi.Truncate(info, m.width, "…"), body)
}

// body is the area under the info line.
func (m *Model) body() string {
	switch {
	case m.focus == focusSaved:
		return m.savedGrid.View()
	case m.synErr != nil:
		return errorSnippet(m.synQuery, m.synErr, m.width)
	case m.focus == focusDetail:
		return m.detail()
	case m.ask != nil:
		return screen.Title.Render(fmt.Sprintf("  %v", *m.ask))
	case m.shown != "" && m.grid.Total() == 0:
		return screen.Faint.Render("  no rows")
	}
	return m.grid.View()
}

// detail shows the selected row's terms in full, one per line.
func (m *Model) detail() string {
	row, ok := m.grid.Selected()
	if !ok {
		return ""
	}
	vars := m.grid.Vars()
	w := 0
	for _, v := range vars {
		w = max(w, ansi.StringWidth(v))
	}
	lines := []string{screen.Title.Render(fmt.Sprintf("row %d of %d", m.grid.Cursor()+1, m.grid.Len())) +
		screen.Faint.Render("  (j/k: other rows, esc: back)")}
	for i, v := range vars {
		val := ""
		if i < len(row) {
			val = screen.Full(row[i])
		}
		pad := strings.Repeat(" ", w-ansi.StringWidth(v))
		wrapped := ansi.Wrap(val, max(m.width-w-3, 10), "")
		for j, l := range strings.Split(wrapped, "\n") {
			label := strings.Repeat(" ", w)
			if j == 0 {
				label = screen.Accent.Render(v) + pad
			}
			lines = append(lines, label+"   "+l)
		}
	}
	if len(lines) > m.gridHeight() {
		lines = lines[:m.gridHeight()]
	}
	return strings.Join(lines, "\n")
}

func stack(parts ...string) string { return strings.Join(parts, "\n") }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// duration rounds for reading: ms below a second, else tenths.
func duration(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}
