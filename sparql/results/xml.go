package results

import (
	"bufio"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

const xmlNS = "http://www.w3.org/2005/sparql-results#"

// xmlWriter writes application/sparql-results+xml.
type xmlWriter struct {
	w     *bufio.Writer
	vars  []string
	state int // 0 fresh, 1 in results, 2 done
}

func (x *xmlWriter) Head(vars []string) error {
	if x.state != 0 {
		return stateError("Head called twice or after Boolean")
	}
	x.vars, x.state = vars, 1
	x.w.WriteString("<?xml version=\"1.0\"?>\n<sparql xmlns=\"" + xmlNS + "\">\n<head>\n")
	for _, v := range vars {
		x.w.WriteString("  <variable name=\"")
		xmlEscape(x.w, v)
		x.w.WriteString("\"/>\n")
	}
	_, err := x.w.WriteString("</head>\n<results>\n")
	return err
}

func (x *xmlWriter) Row(row []rdf.Term) error {
	if x.state != 1 {
		return stateError("Row before Head")
	}
	x.w.WriteString("<result>")
	for i, t := range row {
		if t.IsZero() || i >= len(x.vars) {
			continue
		}
		x.w.WriteString("<binding name=\"")
		xmlEscape(x.w, x.vars[i])
		x.w.WriteString("\">")
		switch t.Kind {
		case rdf.KindIRI:
			x.w.WriteString("<uri>")
			xmlEscape(x.w, t.Value)
			x.w.WriteString("</uri>")
		case rdf.KindBlank:
			x.w.WriteString("<bnode>")
			xmlEscape(x.w, t.Value)
			x.w.WriteString("</bnode>")
		default:
			switch {
			case t.Lang != "":
				x.w.WriteString("<literal xml:lang=\"")
				xmlEscape(x.w, t.Lang)
				x.w.WriteString("\">")
			case t.Datatype != rdf.XSDString && t.Datatype != "":
				x.w.WriteString("<literal datatype=\"")
				xmlEscape(x.w, t.Datatype)
				x.w.WriteString("\">")
			default:
				x.w.WriteString("<literal>")
			}
			xmlEscape(x.w, t.Value)
			x.w.WriteString("</literal>")
		}
		x.w.WriteString("</binding>")
	}
	_, err := x.w.WriteString("</result>\n")
	return err
}

// xmlEscape writes s as XML character data or attribute value; Go's
// escaper also turns characters XML cannot carry into U+FFFD.
func xmlEscape(w *bufio.Writer, s string) {
	if !strings.ContainsAny(s, "<>&'\"\r\n\t") && isPlainXML(s) {
		w.WriteString(s)
		return
	}
	_ = xml.EscapeText(w, []byte(s)) // a bufio.Writer error resurfaces at Flush
}

// isPlainXML reports whether s has only characters XML allows unescaped.
func isPlainXML(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0xFFFD || r >= 0xFFFE && r <= 0xFFFF {
			return false
		}
	}
	return true
}

func (x *xmlWriter) Boolean(v bool) error {
	if x.state != 0 {
		return stateError("Boolean after Head")
	}
	x.state = 2
	_, err := x.w.WriteString("<?xml version=\"1.0\"?>\n<sparql xmlns=\"" + xmlNS + "\">\n<head/>\n<boolean>" + strconv.FormatBool(v) + "</boolean>\n</sparql>\n")
	return err
}

func (x *xmlWriter) Flush() error { return x.w.Flush() }

func (x *xmlWriter) Close() error {
	switch x.state {
	case 0:
		return stateError("Close before Head or Boolean")
	case 1:
		x.state = 2
		if _, err := x.w.WriteString("</results>\n</sparql>\n"); err != nil {
			return err
		}
	}
	return x.w.Flush()
}

// ReadXML parses an XML results document.
func ReadXML(r io.Reader, name string) (*Results, error) {
	p := &xmlReader{dec: xml.NewDecoder(r), name: name, out: &Results{}}
	if err := p.read(); err != nil {
		return nil, err
	}
	return p.out, nil
}

type xmlReader struct {
	dec  *xml.Decoder
	name string
	out  *Results
}

func (p *xmlReader) fail(msg string) error {
	line, col := p.dec.InputPos()
	return &Error{Name: p.name, Line: line, Col: col, Msg: msg}
}

func attr(e xml.StartElement, space, local string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == local && (space == "" || a.Name.Space == space) {
			return a.Value, true
		}
	}
	return "", false
}

func (p *xmlReader) read() error {
	sawSparql, sawBody := false, false
	var row []rdf.Term
	var binding string
	inResult, inBinding := false, false
	for {
		tok, err := p.dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return p.fail(err.Error())
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Space != xmlNS {
				return p.fail("element <" + e.Name.Local + "> is not in the SPARQL results namespace")
			}
			switch e.Name.Local {
			case "sparql":
				sawSparql = true
			case "head", "results":
				sawBody = sawBody || e.Name.Local == "results"
			case "variable":
				v, ok := attr(e, "", "name")
				if !ok {
					return p.fail("<variable> without name")
				}
				p.out.Vars = append(p.out.Vars, v)
			case "link":
				if href, ok := attr(e, "", "href"); ok {
					p.out.Links = append(p.out.Links, href)
				}
			case "result":
				if err := checkVars(p.out, p.name); err != nil {
					return err
				}
				row, inResult = make([]rdf.Term, len(p.out.Vars)), true
			case "binding":
				v, ok := attr(e, "", "name")
				if !ok || !inResult {
					return p.fail("<binding> without name or outside <result>")
				}
				binding, inBinding = v, true
			case "uri", "bnode", "literal":
				if !inBinding {
					return p.fail("<" + e.Name.Local + "> outside <binding>")
				}
				t, err := p.term(e)
				if err != nil {
					return err
				}
				row = bind(p.out, row, binding, t)
			case "boolean":
				var s string
				if err := p.dec.DecodeElement(&s, &e); err != nil {
					return p.fail(err.Error())
				}
				b, err := strconv.ParseBool(strings.TrimSpace(s))
				if err != nil {
					return p.fail("<boolean> is not true or false: " + strconv.Quote(s))
				}
				p.out.Ask, p.out.Boolean, sawBody = true, b, true
			default:
				return p.fail("unexpected element <" + e.Name.Local + ">")
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "result":
				p.out.Rows = append(p.out.Rows, row)
				inResult = false
			case "binding":
				inBinding = false
			}
		}
	}
	if !sawSparql || !sawBody {
		return &Error{Name: p.name, Msg: "not a SPARQL results document (no <sparql> with <results> or <boolean>)"}
	}
	// A <binding> may name a variable the head did not declare; such names
	// must be as valid as declared ones.
	return checkVars(p.out, p.name)
}

// term reads the text of a <uri>, <bnode> or <literal> element.
func (p *xmlReader) term(e xml.StartElement) (rdf.Term, error) {
	var s string
	if err := p.dec.DecodeElement(&s, &e); err != nil {
		return rdf.Term{}, p.fail(err.Error())
	}
	switch e.Name.Local {
	case "uri":
		return rdf.IRI(strings.TrimSpace(s)), nil
	case "bnode":
		return rdf.Blank(strings.TrimSpace(s)), nil
	}
	if lang, ok := attr(e, "http://www.w3.org/XML/1998/namespace", "lang"); ok {
		return rdf.LangLiteral(s, lang), nil
	}
	if dt, ok := attr(e, "", "datatype"); ok {
		return rdf.Literal(s, dt), nil
	}
	return rdf.String(s), nil
}
