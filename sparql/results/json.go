package results

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/mneme-archive/mneme/rdf"
)

// jsonWriter writes application/sparql-results+json (SPARQL 1.1 Query
// Results JSON Format).
type jsonWriter struct {
	w     *bufio.Writer
	vars  []string
	state int // 0 fresh, 1 in bindings, 2 done
	rows  int
	buf   []byte
}

func (j *jsonWriter) Head(vars []string) error {
	if j.state != 0 {
		return stateError("Head called twice or after Boolean")
	}
	j.vars, j.state = vars, 1
	b := append(j.buf[:0], `{"head":{"vars":[`...)
	for i, v := range vars {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, v)
	}
	b = append(b, "]},\"results\":{\"bindings\":["...)
	j.buf = b
	_, err := j.w.Write(b)
	return err
}

func (j *jsonWriter) Row(row []rdf.Term) error {
	if j.state != 1 {
		return stateError("Row before Head")
	}
	b := j.buf[:0]
	if j.rows > 0 {
		b = append(b, ',')
	}
	b = append(b, "\n{"...)
	first := true
	for i, t := range row {
		if t.IsZero() || i >= len(j.vars) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONString(b, j.vars[i])
		b = append(b, ':')
		b = appendJSONTerm(b, t)
	}
	b = append(b, '}')
	j.rows++
	j.buf = b
	_, err := j.w.Write(b)
	return err
}

func appendJSONTerm(b []byte, t rdf.Term) []byte {
	switch t.Kind {
	case rdf.KindIRI:
		b = append(b, `{"type":"uri","value":`...)
	case rdf.KindBlank:
		b = append(b, `{"type":"bnode","value":`...)
	default:
		b = append(b, `{"type":"literal","value":`...)
	}
	b = appendJSONString(b, t.Value)
	switch {
	case t.Lang != "":
		b = append(b, `,"xml:lang":`...)
		b = appendJSONString(b, t.Lang)
	case t.Kind == rdf.KindLiteral && t.Datatype != rdf.XSDString && t.Datatype != "":
		b = append(b, `,"datatype":`...)
		b = appendJSONString(b, t.Datatype)
	}
	return append(b, '}')
}

// appendJSONString quotes s as a JSON string; invalid UTF-8 becomes
// U+FFFD, and U+2028/U+2029 are escaped for JavaScript consumers.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, `\u202`...)
			b = append(b, hex[r&15])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

func (j *jsonWriter) Boolean(v bool) error {
	if j.state != 0 {
		return stateError("Boolean after Head")
	}
	j.state = 2
	_, err := j.w.WriteString(`{"head":{},"boolean":` + strconv.FormatBool(v) + "}\n")
	return err
}

func (j *jsonWriter) Flush() error { return j.w.Flush() }

func (j *jsonWriter) Close() error {
	switch j.state {
	case 0:
		return stateError("Close before Head or Boolean")
	case 1:
		j.state = 2
		if _, err := j.w.WriteString("\n]}}\n"); err != nil {
			return err
		}
	}
	return j.w.Flush()
}

// jsonDoc is the JSON results document.
type jsonDoc struct {
	Head *struct {
		Vars []string `json:"vars"`
		Link []string `json:"link"`
	} `json:"head"`
	Results *struct {
		Bindings []map[string]jsonTerm `json:"bindings"`
	} `json:"results"`
	Boolean *bool `json:"boolean"`
}

type jsonTerm struct {
	Type     string `json:"type"`
	Value    string `json:"value"`
	Lang     string `json:"xml:lang"`
	Datatype string `json:"datatype"`
}

// ReadJSON parses a JSON results document.
func ReadJSON(r io.Reader, name string) (*Results, error) {
	var doc jsonDoc
	dec := json.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		return nil, jsonError(name, err)
	}
	if doc.Head == nil {
		return nil, &Error{Name: name, Msg: `missing "head"`}
	}
	out := &Results{Vars: doc.Head.Vars, Links: doc.Head.Link}
	if err := checkVars(out, name); err != nil {
		return nil, err
	}
	switch {
	case doc.Boolean != nil && doc.Results != nil:
		return nil, &Error{Name: name, Msg: `both "boolean" and "results"`}
	case doc.Boolean != nil:
		out.Ask, out.Boolean = true, *doc.Boolean
		return out, nil
	case doc.Results == nil:
		return nil, &Error{Name: name, Msg: `missing "results" or "boolean"`}
	}
	for i, b := range doc.Results.Bindings {
		row := make([]rdf.Term, len(out.Vars))
		for v, jt := range b {
			if v == "" {
				return nil, &Error{Name: name, Msg: "binding " + strconv.Itoa(i+1) + " has an empty variable name"}
			}
			t, err := jt.term()
			if err != nil {
				return nil, &Error{Name: name, Msg: "binding " + strconv.Itoa(i+1) + " of ?" + v + ": " + err.Error()}
			}
			row = bind(out, row, v, t)
		}
		out.Rows = append(out.Rows, row)
	}
	if err := checkVars(out, name); err != nil { // names only bindings used
		return nil, err
	}
	return out, nil
}

func (jt jsonTerm) term() (rdf.Term, error) {
	switch jt.Type {
	case "uri":
		return rdf.IRI(jt.Value), nil
	case "bnode":
		return rdf.Blank(jt.Value), nil
	case "literal", "typed-literal": // typed-literal: the 2008 W3C note's name
		switch {
		case jt.Lang != "":
			return rdf.LangLiteral(jt.Value, jt.Lang), nil
		case jt.Datatype != "":
			return rdf.Literal(jt.Value, jt.Datatype), nil
		}
		return rdf.String(jt.Value), nil
	}
	return rdf.Term{}, errors.New("unknown term type " + strconv.Quote(jt.Type))
}

func jsonError(name string, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &Error{Name: name, Msg: "byte " + strconv.FormatInt(se.Offset, 10) + ": " + se.Error()}
	}
	return &Error{Name: name, Msg: err.Error()}
}
