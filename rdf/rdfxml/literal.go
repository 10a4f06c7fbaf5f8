package rdfxml

import (
	"encoding/xml"
	"maps"
	"slices"
	"strings"
)

// literalWriter writes the content of an rdf:parseType="Literal" element
// as exclusive canonical XML (without comments): namespace declarations
// are written where a name first uses them, attributes are sorted, empty
// elements get an end tag and the special characters are escaped.
type literalWriter struct {
	sb       strings.Builder
	names    []string            // open elements' qualified names
	rendered []map[string]string // declarations written by each open element
}

func newLiteralWriter() *literalWriter { return &literalWriter{} }

func (w *literalWriter) String() string { return w.sb.String() }

// start writes a start tag; stack is the reader's open elements, whose
// declarations give the prefixes.
func (w *literalWriter) start(el xml.StartElement, stack []*frame) {
	decls := map[string]string{}
	use := func(space string, isAttr bool) string {
		if space == "" {
			return ""
		}
		if space == xmlNS {
			return "xml"
		}
		prefix, ok := lookupPrefix(stack, space, isAttr)
		if !ok {
			return space // undeclared prefix: encoding/xml left it as is
		}
		if w.declared(prefix) != space {
			decls[prefix] = space
		}
		return prefix
	}
	qname := func(prefix, local string) string {
		if prefix == "" {
			return local
		}
		return prefix + ":" + local
	}
	name := qname(use(el.Name.Space, false), el.Name.Local)
	type attr struct{ space, name, value string }
	var attrs []attr
	for _, a := range el.Attr {
		if a.Name.Space == xmlnsNS || a.Name.Space == "" && a.Name.Local == "xmlns" {
			continue
		}
		attrs = append(attrs, attr{a.Name.Space, qname(use(a.Name.Space, true), a.Name.Local), a.Value})
	}
	slices.SortFunc(attrs, func(a, b attr) int {
		if c := strings.Compare(a.space, b.space); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	w.sb.WriteString("<" + name)
	prefixes := make([]string, 0, len(decls))
	for p := range decls {
		prefixes = append(prefixes, p)
	}
	slices.Sort(prefixes)
	for _, p := range prefixes {
		if p == "" {
			w.sb.WriteString(` xmlns="`)
		} else {
			w.sb.WriteString(" xmlns:" + p + `="`)
		}
		escape(&w.sb, decls[p], true)
		w.sb.WriteByte('"')
	}
	for _, a := range attrs {
		w.sb.WriteString(" " + a.name + `="`)
		escape(&w.sb, a.value, true)
		w.sb.WriteByte('"')
	}
	w.sb.WriteByte('>')
	w.names = append(w.names, name)
	w.rendered = append(w.rendered, decls)
}

// declared returns the namespace an open literal element has already
// declared for prefix, or "".
func (w *literalWriter) declared(prefix string) string {
	for i := len(w.rendered) - 1; i >= 0; i-- {
		if ns, ok := w.rendered[i][prefix]; ok {
			return ns
		}
	}
	return ""
}

// lookupPrefix finds the nearest in-scope prefix bound to ns; attributes
// need a real prefix (the default namespace does not apply to them).
func lookupPrefix(stack []*frame, ns string, isAttr bool) (string, bool) {
	for i := len(stack) - 1; i >= 0; i-- {
		// Sorted, so that two prefixes for one namespace give a stable choice.
		for _, p := range slices.Sorted(maps.Keys(stack[i].ns)) {
			if stack[i].ns[p] == ns && !(isAttr && p == "") && !shadowed(stack[i+1:], p) {
				return p, true
			}
		}
	}
	return "", false
}

// shadowed reports whether prefix is redeclared in inner elements.
func shadowed(inner []*frame, prefix string) bool {
	for _, f := range inner {
		if _, ok := f.ns[prefix]; ok {
			return true
		}
	}
	return false
}

func (w *literalWriter) end() {
	n := len(w.names) - 1
	w.sb.WriteString("</" + w.names[n] + ">")
	w.names, w.rendered = w.names[:n], w.rendered[:n]
}

func (w *literalWriter) text(t xml.CharData) { escape(&w.sb, string(t), false) }

func (w *literalWriter) procInst(p xml.ProcInst) {
	w.sb.WriteString("<?" + p.Target)
	if len(p.Inst) > 0 {
		w.sb.WriteString(" " + string(p.Inst))
	}
	w.sb.WriteString("?>")
}

// escape writes s with the escapes of canonical XML for text or
// attribute values.
func escape(sb *strings.Builder, s string, attr bool) {
	for _, c := range s {
		switch {
		case c == '&':
			sb.WriteString("&amp;")
		case c == '<':
			sb.WriteString("&lt;")
		case c == '>' && !attr:
			sb.WriteString("&gt;")
		case c == '"' && attr:
			sb.WriteString("&quot;")
		case c == '\t' && attr:
			sb.WriteString("&#x9;")
		case c == '\n' && attr:
			sb.WriteString("&#xA;")
		case c == '\r':
			sb.WriteString("&#xD;")
		default:
			sb.WriteRune(c)
		}
	}
}
