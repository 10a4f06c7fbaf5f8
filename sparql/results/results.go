// Package results reads and writes SPARQL 1.1 query results (SELECT
// solutions and ASK booleans) in the JSON, XML, CSV and TSV formats, and
// decides whether two result sets are equivalent (blank nodes up to
// renaming, as bags or sequences) the way the W3C evaluation tests
// require. Writers stream one row at a time.
package results

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mneme-archive/mneme/rdf"
)

// Results is a complete result set: the solutions of a SELECT query
// (Rows aligned with Vars, the zero Term for unbound) or an ASK answer.
type Results struct {
	Vars    []string
	Rows    [][]rdf.Term
	Ask     bool // an ASK result: Boolean holds the answer
	Boolean bool
	Links   []string // link hrefs from the JSON or XML head
}

// Format is a results serialization.
type Format uint8

const (
	JSON Format = iota
	XML
	CSV
	TSV
)

var formatInfo = [...]struct{ name, mediaType, ext string }{
	JSON: {"json", "application/sparql-results+json", ".srj"},
	XML:  {"xml", "application/sparql-results+xml", ".srx"},
	CSV:  {"csv", "text/csv", ".csv"},
	TSV:  {"tsv", "text/tab-separated-values", ".tsv"},
}

func (f Format) String() string { return formatInfo[f].name }

// MediaType returns the format's registered media type.
func (f Format) MediaType() string { return formatInfo[f].mediaType }

// ParseFormat accepts a format name (json, xml, csv, tsv), a media type
// (parameters ignored) or a file extension (.srj, .srx, .json, .xml,
// .csv, .tsv).
func ParseFormat(s string) (Format, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexByte(s, ';'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	for f, info := range formatInfo {
		if s == info.name || s == info.mediaType || s == info.ext || s == "."+info.name {
			return Format(f), nil
		}
	}
	switch s {
	case "application/json":
		return JSON, nil
	case "application/xml", "text/xml":
		return XML, nil
	}
	return 0, fmt.Errorf("unknown SPARQL results format %q (want json, xml, csv or tsv)", s)
}

// Writer streams a result set: Head, then any number of Row calls, then
// Close; or Boolean then Close for an ASK result. Nothing reaches the
// underlying writer before Head or Boolean, and Close flushes.
type Writer interface {
	Head(vars []string) error
	// Row writes one solution aligned with the Head variables; the zero
	// Term is unbound.
	Row(row []rdf.Term) error
	Boolean(b bool) error
	// Flush pushes buffered rows to the underlying writer, for
	// endpoints that stream.
	Flush() error
	Close() error
}

// NewWriter returns a streaming writer of format f.
func NewWriter(w io.Writer, f Format) Writer {
	bw := bufio.NewWriter(w)
	switch f {
	case XML:
		return &xmlWriter{w: bw}
	case CSV:
		return &textWriter{w: bw, csv: true}
	case TSV:
		return &textWriter{w: bw}
	}
	return &jsonWriter{w: bw}
}

// Write writes r completely in format f.
func Write(w io.Writer, f Format, r *Results) error {
	rw := NewWriter(w, f)
	if r.Ask {
		if err := rw.Boolean(r.Boolean); err != nil {
			return err
		}
		return rw.Close()
	}
	if err := rw.Head(r.Vars); err != nil {
		return err
	}
	for _, row := range r.Rows {
		if err := rw.Row(row); err != nil {
			return err
		}
	}
	return rw.Close()
}

// Read parses a complete result document of format f. name labels errors.
func Read(r io.Reader, f Format, name string) (*Results, error) {
	switch f {
	case XML:
		return ReadXML(r, name)
	case CSV:
		return ReadCSV(r, name)
	case TSV:
		return ReadTSV(r, name)
	}
	return ReadJSON(r, name)
}

// Error locates a problem in a results document.
type Error struct {
	Name      string
	Line, Col int // 0 when unknown
	Msg       string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	}
	return e.Name + ": " + e.Msg
}

// stateError reports writer misuse (rows before the head and the like).
func stateError(what string) error { return fmt.Errorf("results: %s", what) }

// checkVars rejects empty, repeated and non-UTF-8 variable names, which
// no writer could reproduce.
func checkVars(r *Results, name string) error {
	seen := map[string]bool{}
	for _, v := range r.Vars {
		if v == "" || seen[v] || !utf8.ValidString(v) {
			return &Error{Name: name, Msg: "variable " + strconv.Quote(v) + " is empty, repeated or not UTF-8"}
		}
		seen[v] = true
	}
	return nil
}

// bind sets a binding in row, growing vars when a document binds a
// variable its head did not declare.
func bind(r *Results, row []rdf.Term, name string, t rdf.Term) []rdf.Term {
	for i, v := range r.Vars {
		if v == name {
			row[i] = t
			return row
		}
	}
	r.Vars = append(r.Vars, name)
	for i := range r.Rows {
		r.Rows[i] = append(r.Rows[i], rdf.Term{})
	}
	return append(row, t)
}
