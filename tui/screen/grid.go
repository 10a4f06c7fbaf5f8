package screen

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/rdf"
)

// MaxColumnWidth caps a column's width; the row detail shows the rest.
const MaxColumnWidth = 40

// GridKeys are the grid's bindings.
var GridKeys = struct {
	Up, Down, PageUp, PageDown, Top, Bottom, Left, Right key.Binding
}{
	Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("j/k ↑/↓", "move")),
	Down:     key.NewBinding(key.WithKeys("j", "down")),
	PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup/pgdn", "page")),
	PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f", "space")),
	Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/G", "first/last row")),
	Bottom:   key.NewBinding(key.WithKeys("G", "end")),
	Left:     key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("h/l ←/→", "scroll columns")),
	Right:    key.NewBinding(key.WithKeys("l", "right")),
}

// GridHelp lists the grid's bindings for a help overlay.
func GridHelp() []key.Binding {
	k := GridKeys
	return []key.Binding{k.Up, k.PageUp, k.Top, k.Left}
}

// Grid is a table of RDF terms: columns as wide as their content up to
// MaxColumnWidth, a row cursor with paging, horizontal scrolling by
// column, and a filter that keeps the rows with a cell containing its
// text.
type Grid struct {
	vars    []string
	rows    [][]rdf.Term
	cells   [][]string
	widths  []int
	filter  string
	visible []int // indices of the rows that pass the filter
	cursor  int   // index into visible
	// wideLast lets the last column take the width left (SetTable).
	wideLast bool
	top      int // first visible row on screen
	col      int // first column on screen
	width    int
	height   int
	// full is 1 + the column whose cell, in the selected row, is shown
	// whole under the rows when the row cuts it (SetFull); 0 for none.
	full int
}

// fullMaxLines bounds the lines of a cell shown whole.
const fullMaxLines = 3

// SetFull shows the selected row's cell of column col (a URL, say) whole
// under the rows, wrapped, whenever the row on screen cuts it.
func (g *Grid) SetFull(col int) { g.full = col + 1 }

// fullLines are the lines of the selected row's cell shown whole, none
// when the row shows it all.
func (g *Grid) fullLines() []string {
	if g.full == 0 || len(g.visible) == 0 || g.width <= 2 {
		return nil
	}
	cells := g.cells[g.visible[g.cursor]]
	if g.full > len(cells) {
		return nil
	}
	v := ansi.Strip(cells[g.full-1])
	if v == "" || strings.Contains(ansi.Strip(g.line(cells)), v) {
		return nil
	}
	lines := strings.Split(ansi.Hardwrap("› "+v, g.width, true), "\n")
	if len(lines) > fullMaxLines {
		lines = lines[:fullMaxLines]
		lines[fullMaxLines-1] = ansi.Truncate(lines[fullMaxLines-1], g.width-1, "") + "…"
	}
	return lines
}

// SetData replaces the table; the cursor goes to the first row.
func (g *Grid) SetData(vars []string, rows [][]rdf.Term) {
	g.vars, g.rows, g.wideLast = vars, rows, false
	g.cells = make([][]string, len(rows))
	g.widths = make([]int, len(vars))
	for i, v := range vars {
		g.widths[i] = ansi.StringWidth(v)
	}
	for r, row := range rows {
		g.cells[r] = make([]string, len(row))
		for i, t := range row {
			c := Cell(t)
			g.cells[r][i] = c
			if i < len(g.widths) {
				g.widths[i] = max(g.widths[i], min(ansi.StringWidth(c), MaxColumnWidth))
			}
		}
	}
	g.cursor, g.top, g.col = 0, 0, 0
	g.applyFilter()
}

// SetTable replaces the table with rows of text cells, which may carry
// styles; the last column takes the width left. Unlike SetData it keeps
// the cursor where it was, for tables refreshed by polling.
func (g *Grid) SetTable(vars []string, cells [][]string) {
	g.vars, g.rows, g.cells, g.wideLast = vars, nil, cells, true
	g.widths = make([]int, len(vars))
	for i, v := range vars {
		g.widths[i] = ansi.StringWidth(v)
	}
	for _, row := range cells {
		for i, c := range row {
			if i < len(g.widths) {
				w := ansi.StringWidth(c)
				if i < len(vars)-1 {
					w = min(w, MaxColumnWidth)
				}
				g.widths[i] = max(g.widths[i], w)
			}
		}
	}
	g.applyFilter()
}

// SelectedIndex is the index, among all rows, of the row under the
// cursor.
func (g *Grid) SelectedIndex() (int, bool) {
	if len(g.visible) == 0 {
		return 0, false
	}
	return g.visible[g.cursor], true
}

// Select moves the cursor to row (an index among all rows) if the filter
// shows it, and reports whether it did.
func (g *Grid) Select(row int) bool {
	for i, r := range g.visible {
		if r == row {
			g.cursor = i
			g.clamp()
			return true
		}
	}
	return false
}

// SetSize sets the grid's area: a header line and height-1 rows.
func (g *Grid) SetSize(width, height int) {
	g.width, g.height = width, max(height, 2)
	g.clamp()
}

// SetFilter keeps the rows with a cell containing text (ignoring case).
func (g *Grid) SetFilter(text string) {
	g.filter = strings.ToLower(text)
	g.cursor, g.top = 0, 0
	g.applyFilter()
}

func (g *Grid) applyFilter() {
	g.visible = g.visible[:0]
	for r, row := range g.cells {
		if g.filter == "" || matches(row, g.filter) {
			g.visible = append(g.visible, r)
		}
	}
	g.clamp()
}

func matches(cells []string, lower string) bool {
	for _, c := range cells {
		if strings.Contains(strings.ToLower(ansi.Strip(c)), lower) {
			return true
		}
	}
	return false
}

// Len is the number of rows the filter keeps; Total all rows.
func (g *Grid) Len() int   { return len(g.visible) }
func (g *Grid) Total() int { return len(g.cells) }

// Cursor is the position of the selected row among the visible ones.
func (g *Grid) Cursor() int { return g.cursor }

// FirstColumn is the index of the leftmost column on screen.
func (g *Grid) FirstColumn() int { return g.col }

// Vars are the column names.
func (g *Grid) Vars() []string { return g.vars }

// Selected is the row under the cursor.
func (g *Grid) Selected() ([]rdf.Term, bool) {
	if len(g.visible) == 0 || g.rows == nil {
		return nil, false
	}
	return g.rows[g.visible[g.cursor]], true
}

func (g *Grid) pageRows() int { return max(g.height-1-len(g.fullLines()), 1) }

func (g *Grid) clamp() {
	g.cursor = max(min(g.cursor, len(g.visible)-1), 0)
	if g.cursor < g.top {
		g.top = g.cursor
	}
	if g.cursor >= g.top+g.pageRows() {
		g.top = g.cursor - g.pageRows() + 1
	}
	g.col = max(min(g.col, len(g.vars)-1), 0)
}

// Update moves the cursor or scrolls for a key; it reports whether the
// key was the grid's.
func (g *Grid) Update(msg tea.KeyPressMsg) bool {
	k := GridKeys
	switch {
	case key.Matches(msg, k.Up):
		g.cursor--
	case key.Matches(msg, k.Down):
		g.cursor++
	case key.Matches(msg, k.PageUp):
		g.cursor -= g.pageRows()
		g.top -= g.pageRows()
	case key.Matches(msg, k.PageDown):
		g.cursor += g.pageRows()
		g.top += g.pageRows()
	case key.Matches(msg, k.Top):
		g.cursor = 0
	case key.Matches(msg, k.Bottom):
		g.cursor = len(g.visible) - 1
	case key.Matches(msg, k.Left):
		g.col--
	case key.Matches(msg, k.Right):
		g.col++
	default:
		return false
	}
	// The cursor is in range before pageRows reads the selected row.
	g.cursor = max(min(g.cursor, len(g.visible)-1), 0)
	g.top = max(min(g.top, len(g.visible)-g.pageRows()), 0)
	g.clamp()
	return true
}

// View renders the header and the rows on screen, each line cut to the
// grid's width.
func (g *Grid) View() string {
	if len(g.vars) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(Header.Render(g.line(g.vars)))
	end := min(g.top+g.pageRows(), len(g.visible))
	for i := g.top; i < end; i++ {
		b.WriteByte('\n')
		line := g.line(g.cells[g.visible[i]])
		if i == g.cursor {
			line = Selected.Render(ansi.Truncate(line+strings.Repeat(" ", g.width), g.width, ""))
		}
		b.WriteString(line)
	}
	for _, l := range g.fullLines() {
		b.WriteString("\n" + Faint.Render(l))
	}
	return b.String()
}

// line lays out cells from the first column on screen, padded to the
// column widths and separated by two spaces.
func (g *Grid) line(cells []string) string {
	var b strings.Builder
	for i := g.col; i < len(g.widths); i++ {
		if i > g.col {
			b.WriteString("  ")
		}
		c := ""
		if i < len(cells) {
			c = cells[i]
		}
		if g.wideLast && i == len(g.widths)-1 {
			b.WriteString(c) // the line is cut to the screen below
			break
		}
		c = ansi.Truncate(c, g.widths[i], "…")
		b.WriteString(c)
		b.WriteString(strings.Repeat(" ", g.widths[i]-ansi.StringWidth(c)))
		if b.Len() > g.width*4 {
			break
		}
	}
	return ansi.Truncate(strings.TrimRight(b.String(), " "), g.width, "…")
}
