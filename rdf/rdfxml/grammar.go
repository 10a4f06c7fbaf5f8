package rdfxml

import (
	"encoding/xml"
	"regexp"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

// kind is what an open element is in the RDF/XML grammar; it decides
// what its children may be.
type kind uint8

const (
	kindRoot       kind = iota // rdf:RDF: children are node elements
	kindNode                   // node element: children are property elements
	kindProperty               // property element: text, one node element, or empty
	kindResource               // parseType="Resource": children are property elements
	kindCollection             // parseType="Collection": children are list members
	kindLiteral                // parseType="Literal" and everything inside it
)

func (k kind) expects() string {
	switch k {
	case kindRoot, kindCollection:
		return "node elements"
	case kindNode, kindResource:
		return "property elements"
	}
	return "a literal or one node element"
}

// frame is an open element.
type frame struct {
	kind kind
	base string            // in-scope base IRI
	lang string            // in-scope xml:lang
	ns   map[string]string // namespaces declared on this element, prefix → IRI
	// subj is the node of a node element or parseType="Resource", and the
	// subject of the triple for property elements.
	subj rdf.Term
	li   int // rdf:li counter of a node element
	// For property elements:
	pred     rdf.Term
	reify    rdf.Term // rdf:ID of the statement, zero if none
	datatype string
	buf      []byte   // text content
	obj      rdf.Term // the object, once known
	empty    bool     // content must be empty (rdf:resource, rdf:nodeID, property attributes)
	last     rdf.Term // last list cell of a collection
	// For parseType="Literal": the writer of the value, and whether this
	// is the property element itself rather than an element inside it.
	lit    *literalWriter
	litTop bool
}

var (
	ncName  = regexp.MustCompile(`^[\pL_][\pL\pN\pM_.\-\x{B7}]*$`)
	langTag = regexp.MustCompile(`^[a-zA-Z]+(-[a-zA-Z0-9]+)*$`)
)

// Names of the RDF namespace that are syntax, not vocabulary (RDF/XML
// §7.2.2 coreSyntaxTerms and oldTerms).
var (
	notNodeName = map[string]bool{"RDF": true, "ID": true, "about": true, "parseType": true, "resource": true,
		"nodeID": true, "datatype": true, "li": true, "aboutEach": true, "aboutEachPrefix": true, "bagID": true}
	notPropertyName = map[string]bool{"Description": true, "RDF": true, "ID": true, "about": true, "parseType": true,
		"resource": true, "nodeID": true, "datatype": true, "aboutEach": true, "aboutEachPrefix": true, "bagID": true}
	// unqualified are the attribute names RDF/XML reads in the RDF
	// namespace when written without prefix, for old documents.
	unqualified     = map[string]bool{"ID": true, "about": true, "resource": true, "parseType": true, "type": true}
	notPropertyAttr = map[string]bool{"Description": true, "RDF": true, "li": true, "aboutEach": true,
		"aboutEachPrefix": true, "bagID": true}
)

func (r *Reader) start(el xml.StartElement) error {
	parent := r.top()
	f := &frame{}
	if parent != nil {
		f.base, f.lang = parent.base, parent.lang
		if parent.kind == kindLiteral {
			f.kind, f.lit = kindLiteral, parent.lit
		}
	} else {
		if r.seenRoot {
			return r.errorf("a second document element")
		}
		r.seenRoot = true
		f.base = r.base
	}
	for _, a := range el.Attr {
		switch {
		case a.Name.Space == xmlnsNS:
			f.declare(a.Name.Local, a.Value)
			if _, ok := r.prefixes[a.Name.Local]; !ok && f.kind != kindLiteral {
				r.prefixes[a.Name.Local] = a.Value
			}
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			f.declare("", a.Value)
		case a.Name.Space == xmlNS && a.Name.Local == "base" && f.kind != kindLiteral:
			b, err := r.resolve(f.base, a.Value)
			if err != nil {
				return err
			}
			f.base = b.Value
		case a.Name.Space == xmlNS && a.Name.Local == "lang" && f.kind != kindLiteral:
			if a.Value != "" && !langTag.MatchString(a.Value) {
				return r.errorf("xml:lang %q is not a language tag", a.Value)
			}
			f.lang = a.Value
		}
	}
	r.stack = append(r.stack, f)
	if f.kind == kindLiteral {
		f.lit.start(el, r.stack)
		return nil
	}
	switch {
	case parent == nil && el.Name.Space == rdf.RDFNS && el.Name.Local == "RDF":
		f.kind = kindRoot
		return r.checkOnlyXMLAttrs(el)
	case parent == nil:
		return r.nodeElement(el, f)
	}
	switch parent.kind {
	case kindRoot:
		return r.nodeElement(el, f)
	case kindCollection:
		if err := r.nodeElement(el, f); err != nil {
			return err
		}
		cell := r.newBlank()
		if parent.obj.IsZero() {
			parent.obj = cell
			r.emitStatement(parent, cell)
		} else {
			r.emit(parent.last, rdf.IRI(rdf.RDFRest), cell)
		}
		r.emit(cell, rdf.IRI(rdf.RDFFirst), f.subj)
		parent.last = cell
		return nil
	case kindProperty:
		switch {
		case parent.empty:
			return r.errorf("property element with rdf:resource, rdf:nodeID or property attributes must be empty")
		case parent.datatype != "":
			return r.errorf("a property element with rdf:datatype holds only text")
		case !parent.obj.IsZero():
			return r.errorf("a property element can hold only one node element")
		case !isSpace(parent.buf):
			return r.errorf("a property element cannot mix text %q and a node element", clip(string(parent.buf)))
		}
		if err := r.nodeElement(el, f); err != nil {
			return err
		}
		parent.obj = f.subj
		r.emitStatement(parent, f.subj)
		return nil
	}
	return r.propertyElement(el, f, parent)
}

func (f *frame) declare(prefix, ns string) {
	if f.ns == nil {
		f.ns = map[string]string{}
	}
	f.ns[prefix] = ns
}

// checkOnlyXMLAttrs rejects RDF attributes on rdf:RDF.
func (r *Reader) checkOnlyXMLAttrs(el xml.StartElement) error {
	for _, a := range el.Attr {
		if a.Name.Space != xmlnsNS && a.Name.Space != xmlNS && !(a.Name.Space == "" && a.Name.Local == "xmlns") {
			return r.errorf("attribute %s not allowed on rdf:RDF", a.Name.Local)
		}
	}
	return nil
}

// syntaxAttrs are the attributes of an element sorted into RDF syntax
// attributes and property attributes.
type syntaxAttrs struct {
	id, nodeID, about, resource, datatype, parseType *string
	props                                            []xml.Attr
}

func (r *Reader) sortAttrs(el xml.StartElement) (syntaxAttrs, error) {
	var s syntaxAttrs
	for _, a := range el.Attr {
		v := a.Value
		switch {
		case a.Name.Space == xmlnsNS || a.Name.Space == xmlNS || a.Name.Space == "" && a.Name.Local == "xmlns":
			continue
		case a.Name.Space == "" && unqualified[a.Name.Local]:
			a.Name.Space = rdf.RDFNS // §6.1.4: read as the rdf: attribute
		case a.Name.Space == "" && strings.HasPrefix(strings.ToLower(a.Name.Local), "xml"):
			continue // reserved for XML, ignored
		case a.Name.Space == "":
			return s, r.errorf("attribute %q has no namespace", a.Name.Local)
		}
		if a.Name.Space != rdf.RDFNS {
			s.props = append(s.props, a)
			continue
		}
		switch a.Name.Local {
		case "ID":
			s.id = &v
		case "nodeID":
			s.nodeID = &v
		case "about":
			s.about = &v
		case "resource":
			s.resource = &v
		case "datatype":
			s.datatype = &v
		case "parseType":
			s.parseType = &v
		default:
			if notPropertyAttr[a.Name.Local] {
				return s, r.errorf("rdf:%s is not allowed as an attribute", a.Name.Local)
			}
			s.props = append(s.props, a)
		}
	}
	for _, v := range []*string{s.id, s.nodeID} {
		if v != nil && !ncName.MatchString(*v) {
			return s, r.errorf("%q is not an XML NCName, as rdf:ID and rdf:nodeID must be", *v)
		}
	}
	return s, nil
}

// nodeElement starts a node element: it fixes the node and emits its
// type and property attribute triples.
func (r *Reader) nodeElement(el xml.StartElement, f *frame) error {
	f.kind = kindNode
	if el.Name.Space == rdf.RDFNS && notNodeName[el.Name.Local] {
		return r.errorf("rdf:%s cannot be a node element", el.Name.Local)
	}
	a, err := r.sortAttrs(el)
	if err != nil {
		return err
	}
	if a.resource != nil || a.datatype != nil || a.parseType != nil {
		return r.errorf("rdf:resource, rdf:datatype and rdf:parseType are not allowed on a node element")
	}
	if count(a.id, a.nodeID, a.about) > 1 {
		return r.errorf("a node element takes only one of rdf:ID, rdf:nodeID and rdf:about")
	}
	switch {
	case a.about != nil:
		f.subj, err = r.resolve(f.base, *a.about)
	case a.id != nil:
		f.subj, err = r.resolve(f.base, "#"+*a.id)
	case a.nodeID != nil:
		f.subj = rdf.Blank(*a.nodeID)
	default:
		f.subj = r.newBlank()
	}
	if err != nil {
		return err
	}
	if el.Name.Space != rdf.RDFNS || el.Name.Local != "Description" {
		t, err := r.elementIRI(el.Name)
		if err != nil {
			return err
		}
		r.emit(f.subj, rdf.IRI(rdf.RDFType), t)
	}
	return r.propertyAttrs(f.subj, f, a.props)
}

// propertyAttrs emits the triples of property attributes: literals in the
// in-scope language, except rdf:type whose value is an IRI.
func (r *Reader) propertyAttrs(subj rdf.Term, f *frame, props []xml.Attr) error {
	for _, a := range props {
		p, err := r.elementIRI(a.Name)
		if err != nil {
			return err
		}
		if p.Value == rdf.RDFType {
			t, err := r.resolve(f.base, a.Value)
			if err != nil {
				return err
			}
			r.emit(subj, p, t)
			continue
		}
		r.emit(subj, p, r.literal(a.Value, "", f.lang))
	}
	return nil
}

func (r *Reader) literal(lex, datatype, lang string) rdf.Term {
	switch {
	case datatype != "":
		return rdf.Literal(lex, datatype)
	case lang != "":
		return rdf.LangLiteral(lex, lang)
	}
	return rdf.String(lex)
}

func count(ps ...*string) int {
	n := 0
	for _, p := range ps {
		if p != nil {
			n++
		}
	}
	return n
}

// propertyElement starts a property element of the node parent stands for.
func (r *Reader) propertyElement(el xml.StartElement, f, parent *frame) error {
	f.kind = kindProperty
	f.subj = parent.subj
	if el.Name.Space == rdf.RDFNS && notPropertyName[el.Name.Local] {
		return r.errorf("rdf:%s cannot be a property element", el.Name.Local)
	}
	if el.Name.Space == rdf.RDFNS && el.Name.Local == "li" {
		parent.li++
		f.pred = rdf.IRI(rdf.RDFNS + "_" + strconv.Itoa(parent.li))
	} else {
		p, err := r.elementIRI(el.Name)
		if err != nil {
			return err
		}
		f.pred = p
	}
	a, err := r.sortAttrs(el)
	if err != nil {
		return err
	}
	if a.about != nil {
		return r.errorf("rdf:about is not allowed on a property element")
	}
	if a.id != nil {
		if f.reify, err = r.resolve(f.base, "#"+*a.id); err != nil {
			return err
		}
	}
	if a.parseType != nil {
		if a.resource != nil || a.nodeID != nil || a.datatype != nil || len(a.props) > 0 {
			return r.errorf("rdf:parseType allows no rdf:resource, rdf:nodeID, rdf:datatype or property attributes")
		}
		switch *a.parseType {
		case "Resource":
			f.kind = kindResource
			b := r.newBlank()
			r.emitStatement(f, b)
			f.subj = b
		case "Collection":
			f.kind = kindCollection
		default: // "Literal", and any other value per §7.2.20
			f.kind, f.litTop = kindLiteral, true
			f.lit = newLiteralWriter()
		}
		return nil
	}
	if a.resource != nil && a.nodeID != nil {
		return r.errorf("a property element takes only one of rdf:resource and rdf:nodeID")
	}
	if a.datatype != nil {
		if a.resource != nil || a.nodeID != nil || len(a.props) > 0 {
			return r.errorf("rdf:datatype allows no rdf:resource, rdf:nodeID or property attributes")
		}
		dt, err := r.resolve(f.base, *a.datatype)
		if err != nil {
			return err
		}
		f.datatype = dt.Value
		return nil
	}
	switch {
	case a.resource != nil:
		f.obj, err = r.resolve(f.base, *a.resource)
	case a.nodeID != nil:
		f.obj = rdf.Blank(*a.nodeID)
	case len(a.props) > 0:
		f.obj = r.newBlank()
	default:
		return nil // the content decides
	}
	if err != nil {
		return err
	}
	f.empty = true
	r.emitStatement(f, f.obj)
	return r.propertyAttrs(f.obj, f, a.props)
}

func (r *Reader) end() error {
	f := r.top()
	r.stack = r.stack[:len(r.stack)-1]
	switch f.kind {
	case kindLiteral:
		if !f.litTop {
			f.lit.end()
			return nil
		}
		r.emitStatement(f, rdf.Literal(f.lit.String(), rdf.RDFNS+"XMLLiteral"))
	case kindCollection:
		if f.obj.IsZero() {
			r.emitStatement(f, rdf.IRI(rdf.RDFNil))
		} else {
			r.emit(f.last, rdf.IRI(rdf.RDFRest), rdf.IRI(rdf.RDFNil))
		}
	case kindProperty:
		if f.empty || !f.obj.IsZero() {
			return nil
		}
		r.emitStatement(f, r.literal(string(f.buf), f.datatype, f.lang))
	}
	return nil
}
