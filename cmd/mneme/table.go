package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

const (
	// tableSample rows set the column widths; the rest are streamed with
	// those widths, so memory stays bounded whatever the result size.
	tableSample = 1000
	// maxColumn caps a column's width; longer cells overflow it.
	maxColumn = 80
)

// tableSource is what writeTable reads: a local result (localRows) or a
// results document from an endpoint (tableRows).
type tableSource interface {
	ask() (isAsk, answer bool)
	vars() []string
	Next() bool
	Row() []rdf.Term
	Err() error
}

// localRows is a local query's result as a tableSource.
type localRows struct{ *sparql.Result }

func (l localRows) ask() (isAsk, answer bool) {
	if l.Form != sparql.Ask {
		return false, false
	}
	return true, l.Boolean()
}

func (l localRows) vars() []string { return l.Vars }

// tableLayout is what differs between the command's tables.
type tableLayout struct {
	// indent goes before every line.
	indent string
	// plain term tables head their columns with the names as given (no
	// "?") and show terms by their bare values.
	plain bool
	// count ends the table with its row count.
	count bool
	// none is the line that ends a table without rows (if not count).
	none string
}

// queryTable is the layout of mneme query's tables.
var queryTable = tableLayout{count: true}

// writeTable writes SELECT solutions as columns aligned for reading (as
// lay says), or an ASK answer as true or false.
func writeTable(w io.Writer, res tableSource, lay tableLayout) error {
	if isAsk, answer := res.ask(); isAsk {
		_, err := fmt.Fprintln(w, answer)
		return err
	}
	vars := res.vars()
	head := make([]string, len(vars))
	for i, v := range vars {
		head[i] = v
		if !lay.plain {
			head[i] = "?" + v
		}
	}
	t := newColumns(w, lay, head)
	for res.Next() {
		cells := make([]string, len(vars))
		for i, term := range res.Row() {
			cells[i] = tableCell(term)
			if lay.plain {
				cells[i] = term.Value
			}
		}
		t.row(cells)
	}
	if err := res.Err(); err != nil {
		t.bw.Flush()
		return err
	}
	return t.end()
}

// columns writes rows of cells as columns aligned for reading under a
// head and a rule: its first tableSample rows set the column widths, the
// rest are streamed with those widths, so memory stays bounded whatever
// the number of rows.
type columns struct {
	bw      *bufio.Writer
	lay     tableLayout
	head    []string
	widths  []int
	held    [][]string
	started bool
	n       int
}

func newColumns(w io.Writer, lay tableLayout, head []string) *columns {
	t := &columns{bw: bufio.NewWriter(w), lay: lay, head: head, widths: make([]int, len(head))}
	for i, h := range head {
		t.widths[i] = utf8.RuneCountInString(h)
	}
	return t
}

func (t *columns) row(cells []string) {
	t.n++
	if t.started {
		t.line(cells)
		return
	}
	for i, c := range cells {
		t.widths[i] = max(t.widths[i], min(utf8.RuneCountInString(c), maxColumn))
	}
	t.held = append(t.held, cells)
	if len(t.held) == tableSample {
		t.start()
	}
}

func (t *columns) start() {
	t.line(t.head)
	t.bw.WriteString(t.lay.indent)
	for i, wd := range t.widths {
		if i > 0 {
			t.bw.WriteString("  ")
		}
		t.bw.WriteString(strings.Repeat("-", wd))
	}
	t.bw.WriteByte('\n')
	for _, cells := range t.held {
		t.line(cells)
	}
	t.held, t.started = nil, true
}

// end writes what is held and the table's last line.
func (t *columns) end() error {
	if !t.started {
		t.start()
	}
	switch {
	case t.lay.count:
		fmt.Fprintf(t.bw, "(%s)\n", plural(t.n, "row"))
	case t.n == 0 && t.lay.none != "":
		fmt.Fprintf(t.bw, "%s%s\n", t.lay.indent, t.lay.none)
	}
	return t.bw.Flush()
}

func (t *columns) line(cells []string) {
	t.bw.WriteString(t.lay.indent)
	for i, c := range cells {
		if i > 0 {
			t.bw.WriteString("  ")
		}
		t.bw.WriteString(c)
		if i < len(cells)-1 {
			t.bw.WriteString(strings.Repeat(" ", max(0, t.widths[i]-utf8.RuneCountInString(c))))
		}
	}
	t.bw.WriteByte('\n')
}

// termRows are solutions held in memory as a tableSource.
type termRows struct {
	names []string
	rows  [][]rdf.Term
	i     int
}

func (t *termRows) ask() (isAsk, answer bool) { return false, false }
func (t *termRows) vars() []string            { return t.names }
func (t *termRows) Next() bool                { t.i++; return t.i <= len(t.rows) }
func (t *termRows) Row() []rdf.Term           { return t.rows[t.i-1] }
func (t *termRows) Err() error                { return nil }

// tableCell shows a term as in Turtle: numbers and booleans bare, other
// terms in N-Triples form, unbound as nothing.
func tableCell(t rdf.Term) string {
	if t.IsZero() {
		return ""
	}
	if t.IsLiteral() && t.Lang == "" {
		switch t.Datatype {
		case rdf.XSDInteger, rdf.XSDDecimal, rdf.XSDDouble, rdf.XSDBoolean:
			return t.Value
		}
	}
	return t.String()
}
