package syntax

import "github.com/mneme-archive/mneme/rdf"

// Path is a property path expression (SPARQL 1.1 §9).
type Path interface {
	AppendSSE(dst []byte) []byte
}

// PathLink is a single IRI step.
type PathLink struct{ IRI string }

// PathInverse is ^path.
type PathInverse struct{ Path Path }

// PathSeq is path1 / path2.
type PathSeq struct{ Left, Right Path }

// PathAlt is path1 | path2.
type PathAlt struct{ Left, Right Path }

// PathMod is path*, path+ or path? (Mod is '*', '+' or '?').
type PathMod struct {
	Path Path
	Mod  byte
}

// PathNegated is !(iri | ^iri ...): any predicate not listed, in either
// direction as marked.
type PathNegated struct {
	Forward, Inverse []string
}

func (p *PathLink) AppendSSE(dst []byte) []byte { return rdf.IRI(p.IRI).Append(dst) }

func (p *PathInverse) AppendSSE(dst []byte) []byte {
	return append(p.Path.AppendSSE(append(dst, "(reverse "...)), ')')
}

func (p *PathSeq) AppendSSE(dst []byte) []byte { return appendPair(dst, "seq", p.Left, p.Right) }

func (p *PathAlt) AppendSSE(dst []byte) []byte { return appendPair(dst, "alt", p.Left, p.Right) }

func (p *PathMod) AppendSSE(dst []byte) []byte {
	dst = append(dst, "(path"...)
	dst = append(dst, p.Mod, ' ')
	return append(p.Path.AppendSSE(dst), ')')
}

func (p *PathNegated) AppendSSE(dst []byte) []byte {
	dst = append(dst, "(notoneof"...)
	for _, iri := range p.Forward {
		dst = rdf.IRI(iri).Append(append(dst, ' '))
	}
	for _, iri := range p.Inverse {
		dst = append(rdf.IRI(iri).Append(append(dst, " (reverse "...)), ')')
	}
	return append(dst, ')')
}

func appendPair(dst []byte, name string, l, r Path) []byte {
	dst = append(append(append(dst, '('), name...), ' ')
	dst = l.AppendSSE(dst)
	dst = append(dst, ' ')
	return append(r.AppendSSE(dst), ')')
}
