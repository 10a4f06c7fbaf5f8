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
	// plain tables head their columns with the names as given (no "?"),
	// show terms by their bare values and end with "(no rows)" only when
	// there are none, instead of a row count.
	plain bool
}

// queryTable is the layout of mneme query's tables.
var queryTable = tableLayout{}

// writeTable writes SELECT solutions as columns aligned for reading, with
// a row count at the end (as lay says), or an ASK answer as true or false.
func writeTable(w io.Writer, res tableSource, lay tableLayout) error {
	bw := bufio.NewWriter(w)
	if isAsk, answer := res.ask(); isAsk {
		fmt.Fprintln(bw, answer)
		return bw.Flush()
	}
	vars := res.vars()
	widths := make([]int, len(vars))
	head := make([]string, len(vars))
	for i, v := range vars {
		head[i] = v
		if !lay.plain {
			head[i] = "?" + v
		}
		widths[i] = utf8.RuneCountInString(head[i])
	}
	var held [][]string
	started := false
	start := func() {
		writeTableRow(bw, lay.indent, head, widths)
		bw.WriteString(lay.indent)
		for i, wd := range widths {
			if i > 0 {
				bw.WriteString("  ")
			}
			bw.WriteString(strings.Repeat("-", wd))
		}
		bw.WriteByte('\n')
		for _, cells := range held {
			writeTableRow(bw, lay.indent, cells, widths)
		}
		held, started = nil, true
	}
	n := 0
	for res.Next() {
		n++
		cells := make([]string, len(vars))
		for i, t := range res.Row() {
			cells[i] = tableCell(t)
			if lay.plain {
				cells[i] = t.Value
			}
		}
		if started {
			writeTableRow(bw, lay.indent, cells, widths)
			continue
		}
		for i, c := range cells {
			widths[i] = max(widths[i], min(utf8.RuneCountInString(c), maxColumn))
		}
		held = append(held, cells)
		if len(held) == tableSample {
			start()
		}
	}
	if err := res.Err(); err != nil {
		bw.Flush()
		return err
	}
	if !started {
		start()
	}
	switch {
	case !lay.plain:
		fmt.Fprintf(bw, "(%s)\n", plural(n, "row"))
	case n == 0:
		fmt.Fprintf(bw, "%s(no rows)\n", lay.indent)
	}
	return bw.Flush()
}

func writeTableRow(bw *bufio.Writer, indent string, cells []string, widths []int) {
	bw.WriteString(indent)
	for i, c := range cells {
		if i > 0 {
			bw.WriteString("  ")
		}
		bw.WriteString(c)
		if i < len(cells)-1 {
			bw.WriteString(strings.Repeat(" ", max(0, widths[i]-utf8.RuneCountInString(c))))
		}
	}
	bw.WriteByte('\n')
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
