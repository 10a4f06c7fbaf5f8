package results

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

// textWriter writes the CSV and TSV formats (SPARQL 1.1 Query Results
// CSV and TSV Formats). CSV loses term kinds and datatypes; TSV keeps
// them, writing terms in Turtle syntax. Neither has a form for ASK, for
// which they write the single field true or false.
type textWriter struct {
	w     *bufio.Writer
	csv   bool
	state int // 0 fresh, 1 rows, 2 done
	buf   []byte
}

func (t *textWriter) Head(vars []string) error {
	if t.state != 0 {
		return stateError("Head called twice or after Boolean")
	}
	t.state = 1
	b := t.buf[:0]
	for i, v := range vars {
		if i > 0 {
			b = append(b, t.sep())
		}
		if t.csv {
			b = appendCSVField(b, v)
		} else {
			b = append(append(b, '?'), v...)
		}
	}
	b = t.eol(b)
	t.buf = b
	_, err := t.w.Write(b)
	return err
}

func (t *textWriter) sep() byte {
	if t.csv {
		return ','
	}
	return '\t'
}

// eol ends a line: CRLF in CSV (RFC 4180), LF in TSV.
func (t *textWriter) eol(b []byte) []byte {
	if t.csv {
		return append(b, '\r', '\n')
	}
	return append(b, '\n')
}

func (t *textWriter) Row(row []rdf.Term) error {
	if t.state != 1 {
		return stateError("Row before Head")
	}
	b := t.buf[:0]
	for i, term := range row {
		if i > 0 {
			b = append(b, t.sep())
		}
		switch {
		case term.IsZero():
		case t.csv:
			b = appendCSVField(b, csvText(term))
		default:
			b = appendTSVTerm(b, term)
		}
	}
	b = t.eol(b)
	t.buf = b
	_, err := t.w.Write(b)
	return err
}

// csvText is what CSV keeps of a term: the IRI, the lexical form, or
// the blank node label with "_:".
func csvText(t rdf.Term) string {
	if t.Kind == rdf.KindBlank {
		return "_:" + t.Value
	}
	return t.Value
}

// appendCSVField quotes a field that holds a comma, quote or line break.
func appendCSVField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}

// appendTSVTerm writes t in Turtle syntax: numbers and booleans bare when
// their lexical form reads back as the same literal, other terms as in
// N-Triples (which escapes tabs and line breaks).
func appendTSVTerm(b []byte, t rdf.Term) []byte {
	if t.Kind == rdf.KindLiteral {
		if dt, ok := bareDatatype(t.Value); ok && dt == t.Datatype {
			return append(b, t.Value...)
		}
	}
	return t.Append(b)
}

// bareDatatype returns the datatype Turtle gives an unquoted literal:
// INTEGER, DECIMAL, DOUBLE or a boolean.
func bareDatatype(s string) (string, bool) {
	switch s {
	case "true", "false":
		return rdf.XSDBoolean, true
	}
	body := trimSign(s)
	if body == "" {
		return "", false
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(body), "e")
	intPart, frac, hasDot := strings.Cut(mant, ".")
	if !digits(intPart, true) || !digits(frac, true) || intPart+frac == "" {
		return "", false
	}
	if hasExp {
		if !digits(trimSign(exp), false) {
			return "", false
		}
		return rdf.XSDDouble, true
	}
	if hasDot {
		if frac == "" {
			return "", false // "1." is not a Turtle DECIMAL
		}
		return rdf.XSDDecimal, true
	}
	return rdf.XSDInteger, true
}

func trimSign(s string) string {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[1:]
	}
	return s
}

func digits(s string, emptyOK bool) bool {
	if s == "" {
		return emptyOK
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (t *textWriter) Boolean(v bool) error {
	if t.state != 0 {
		return stateError("Boolean after Head")
	}
	t.state = 2
	_, err := t.w.Write(t.eol([]byte(strconv.FormatBool(v))))
	return err
}

func (t *textWriter) Flush() error { return t.w.Flush() }

func (t *textWriter) Close() error {
	if t.state == 0 {
		return stateError("Close before Head or Boolean")
	}
	t.state = 2
	return t.w.Flush()
}

// ReadTSV parses a TSV results document. A document whose only line is
// true or false is read as an ASK result.
func ReadTSV(r io.Reader, name string) (*Results, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	out := &Results{}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		fields := strings.Split(text, "\t")
		if line == 1 {
			if text == "true" || text == "false" {
				out.Ask, out.Boolean = true, text == "true"
				continue
			}
			if text == "" {
				continue // no variables
			}
			for i, f := range fields {
				if len(f) < 2 || f[0] != '?' && f[0] != '$' {
					return nil, &Error{Name: name, Line: 1, Col: colOf(fields, i), Msg: "header field " + strconv.Quote(f) + " is not a variable"}
				}
				out.Vars = append(out.Vars, f[1:])
			}
			if err := checkVars(out, name); err != nil {
				return nil, err
			}
			continue
		}
		if out.Ask {
			return nil, &Error{Name: name, Line: line, Msg: "content after a boolean result"}
		}
		if len(fields) != len(out.Vars) && !(text == "" && len(out.Vars) == 0) {
			return nil, &Error{Name: name, Line: line, Msg: "found " + strconv.Itoa(len(fields)) + " fields, want " + strconv.Itoa(len(out.Vars))}
		}
		row := make([]rdf.Term, len(out.Vars))
		for i := range out.Vars {
			t, err := parseTSVTerm(fields[i])
			if err != nil {
				return nil, &Error{Name: name, Line: line, Col: colOf(fields, i), Msg: err.Error()}
			}
			row[i] = t
		}
		out.Rows = append(out.Rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, &Error{Name: name, Line: line + 1, Msg: err.Error()}
	}
	if line == 0 {
		return nil, &Error{Name: name, Msg: "empty document: no header line"}
	}
	return out, nil
}

// colOf returns the 1-based column where field i starts, in runes.
func colOf(fields []string, i int) int {
	col := 1
	for _, f := range fields[:i] {
		col += len([]rune(f)) + 1
	}
	return col
}

// parseTSVTerm reads one TSV field: empty (unbound), <iri>, _:label,
// a quoted literal with @lang or ^^<datatype>, or a bare number or
// boolean.
func parseTSVTerm(s string) (rdf.Term, error) {
	switch {
	case s == "":
		return rdf.Term{}, nil
	case s[0] == '<':
		if len(s) < 2 || s[len(s)-1] != '>' {
			return rdf.Term{}, errors.New("IRI " + strconv.Quote(s) + " does not end with '>'")
		}
		v, err := unescape(s[1:len(s)-1], false)
		return rdf.IRI(v), err
	case strings.HasPrefix(s, "_:"):
		if len(s) == 2 {
			return rdf.Term{}, errors.New("blank node without label")
		}
		return rdf.Blank(s[2:]), nil
	case s[0] == '"' || s[0] == '\'':
		end := closingQuote(s)
		if end < 0 {
			return rdf.Term{}, errors.New("unterminated string " + s)
		}
		lex, err := unescape(s[1:end], true)
		if err != nil {
			return rdf.Term{}, err
		}
		rest := s[end+1:]
		switch {
		case rest == "":
			return rdf.String(lex), nil
		case rest[0] == '@' && len(rest) > 1:
			return rdf.LangLiteral(lex, rest[1:]), nil
		case strings.HasPrefix(rest, "^^<") && strings.HasSuffix(rest, ">"):
			dt, err := unescape(rest[3:len(rest)-1], false)
			return rdf.Literal(lex, dt), err
		}
		return rdf.Term{}, errors.New("unexpected " + strconv.Quote(rest) + " after string")
	}
	if dt, ok := bareDatatype(s); ok {
		return rdf.Literal(s, dt), nil
	}
	return rdf.Term{}, errors.New("cannot read term " + strconv.Quote(s))
}

// closingQuote returns the index of the quote that closes s[0], or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case s[0]:
			return i
		}
	}
	return -1
}

// unescape resolves \uXXXX and \UXXXXXXXX (and, in strings, the ECHAR
// escapes \t \b \n \r \f \" \' \\).
func unescape(s string, echar bool) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return "", errors.New("lone backslash at the end of " + strconv.Quote(s))
		}
		i++
		switch e := s[i]; {
		case e == 'u' || e == 'U':
			n := 4
			if e == 'U' {
				n = 8
			}
			if i+1+n > len(s) {
				return "", errors.New("short \\" + string(e) + " escape in " + strconv.Quote(s))
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", errors.New("bad \\" + string(e) + " escape in " + strconv.Quote(s))
			}
			b.WriteRune(rune(v))
			i += n
		case echar && strings.IndexByte(`tbnrf"'\`, e) >= 0:
			b.WriteByte(echarValue(e))
		default:
			return "", errors.New("invalid escape \\" + string(e) + " in " + strconv.Quote(s))
		}
	}
	return b.String(), nil
}

func echarValue(e byte) byte {
	switch e {
	case 't':
		return '\t'
	case 'b':
		return '\b'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 'f':
		return '\f'
	}
	return e // " ' and \ stand for themselves
}

// ReadCSV parses a CSV results document. CSV does not record what kind of
// term a value was: fields starting with "_:" become blank nodes, other
// non-empty fields simple literals, empty fields unbound. Compare against
// results passed through CSVTerms.
func ReadCSV(r io.Reader, name string) (*Results, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	out := &Results{}
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			if line == 1 {
				return nil, &Error{Name: name, Msg: "empty document: no header line"}
			}
			return out, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &Error{Name: name, Line: pe.Line, Col: pe.Column, Msg: pe.Err.Error()}
			}
			return nil, &Error{Name: name, Line: line, Msg: err.Error()}
		}
		if line == 1 {
			if len(rec) == 1 && (rec[0] == "true" || rec[0] == "false") {
				out.Ask, out.Boolean = true, rec[0] == "true"
				continue
			}
			out.Vars = rec
			if err := checkVars(out, name); err != nil {
				return nil, err
			}
			continue
		}
		if len(rec) != len(out.Vars) {
			return nil, &Error{Name: name, Line: line, Msg: "found " + strconv.Itoa(len(rec)) + " fields, want " + strconv.Itoa(len(out.Vars))}
		}
		row := make([]rdf.Term, len(rec))
		for i, f := range rec {
			row[i] = csvTerm(f)
		}
		out.Rows = append(out.Rows, row)
	}
}

func csvTerm(f string) rdf.Term {
	switch {
	case f == "":
		return rdf.Term{}
	case strings.HasPrefix(f, "_:") && len(f) > 2:
		return rdf.Blank(f[2:])
	}
	return rdf.String(f)
}

// CSVTerms returns r as it reads back from CSV: every IRI and literal a
// simple literal of its text, blank nodes and unbound values unchanged.
func CSVTerms(r *Results) *Results {
	out := *r
	out.Rows = make([][]rdf.Term, len(r.Rows))
	for i, row := range r.Rows {
		out.Rows[i] = make([]rdf.Term, len(row))
		for j, t := range row {
			if t.IsZero() {
				continue
			}
			out.Rows[i][j] = csvTerm(csvText(t))
		}
	}
	return &out
}
