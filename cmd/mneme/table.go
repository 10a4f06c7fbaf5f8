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

// writeTable writes SELECT solutions as columns aligned for reading, with
// a row count at the end, or an ASK answer as true or false.
func writeTable(w io.Writer, res tableSource) error {
	bw := bufio.NewWriter(w)
	if isAsk, answer := res.ask(); isAsk {
		fmt.Fprintln(bw, answer)
		return bw.Flush()
	}
	vars := res.vars()
	widths := make([]int, len(vars))
	head := make([]string, len(vars))
	for i, v := range vars {
		head[i] = "?" + v
		widths[i] = utf8.RuneCountInString(head[i])
	}
	var held [][]string
	started := false
	start := func() {
		writeTableRow(bw, head, widths)
		for i, wd := range widths {
			if i > 0 {
				bw.WriteString("  ")
			}
			bw.WriteString(strings.Repeat("-", wd))
		}
		bw.WriteByte('\n')
		for _, cells := range held {
			writeTableRow(bw, cells, widths)
		}
		held, started = nil, true
	}
	n := 0
	for res.Next() {
		n++
		cells := make([]string, len(vars))
		for i, t := range res.Row() {
			cells[i] = tableCell(t)
		}
		if started {
			writeTableRow(bw, cells, widths)
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
	fmt.Fprintf(bw, "(%s)\n", plural(n, "row"))
	return bw.Flush()
}

func writeTableRow(bw *bufio.Writer, cells []string, widths []int) {
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
