package optimize

import (
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// BindConstants turns a filter that fixes a variable of a basic graph
// pattern to one term — ?v = <iri>, ?v = "string", sameTerm(?v, c) —
// into that term written in the pattern, the variable then bound to it:
// the pattern is matched for the one term instead of for all and
// filtered. = is term equality only for IRIs and xsd:strings (1 = 1.0
// holds between distinct terms), so other constants are left to the
// filter. It does not modify op.
func BindConstants(op algebra.Op) algebra.Op {
	return rewrite(op, func(op algebra.Op) algebra.Op {
		f, ok := op.(*algebra.Filter)
		if !ok {
			return op
		}
		b, ok := f.Sub.(*algebra.BGP)
		if !ok {
			return op
		}
		vars := map[string]bool{}
		for _, t := range b.Triples {
			for _, n := range [3]syntax.Node{t.S, t.P, t.O} {
				if n.IsVar() {
					vars[n.Var] = true
				}
			}
		}
		fixed := map[string]rdf.Term{}
		var order []string
		var keep []syntax.Expr
		for _, e := range f.Exprs {
			v, c, ok := fixes(e)
			if ok && vars[v] && isVisible(v) {
				if _, dup := fixed[v]; !dup {
					fixed[v] = c
					order = append(order, v)
					continue
				}
			}
			keep = append(keep, e)
		}
		if len(fixed) == 0 {
			return op
		}
		sub := func(n syntax.Node) syntax.Node {
			if n.IsVar() {
				if c, ok := fixed[n.Var]; ok {
					return syntax.Node{Term: c}
				}
			}
			return n
		}
		nb := &algebra.BGP{Triples: make([]syntax.Triple, len(b.Triples))}
		for i, t := range b.Triples {
			nb.Triples[i] = syntax.Triple{S: sub(t.S), P: sub(t.P), O: sub(t.O)}
		}
		var out algebra.Op = nb
		for _, v := range order {
			out = &algebra.Extend{Sub: out, Var: v, Expr: &syntax.Const{Term: fixed[v]}}
		}
		if len(keep) > 0 {
			out = &algebra.Filter{Exprs: keep, Sub: out}
		}
		return out
	})
}

// fixes reports whether e is true exactly when variable v is the term c.
func fixes(e syntax.Expr) (v string, c rdf.Term, ok bool) {
	call, isCall := e.(*syntax.Call)
	if !isCall || len(call.Args) != 2 {
		return "", rdf.Term{}, false
	}
	sameTerm := call.Op == "SAMETERM"
	if call.Op != "=" && !sameTerm {
		return "", rdf.Term{}, false
	}
	a, b := call.Args[0], call.Args[1]
	if _, isVar := b.(*syntax.Var); isVar {
		a, b = b, a
	}
	x, isVar := a.(*syntax.Var)
	k, isConst := b.(*syntax.Const)
	if !isVar || !isConst {
		return "", rdf.Term{}, false
	}
	t := k.Term
	switch {
	case sameTerm && t.Kind != rdf.KindNone:
	case t.Kind == rdf.KindIRI:
	case t.Kind == rdf.KindLiteral && t.Datatype == rdf.XSDString:
	default:
		return "", rdf.Term{}, false
	}
	return x.Name, t, true
}

// isVisible reports whether v is a variable of the query, not one the
// translation made for a blank node or a path (those may not be bound by
// an extend: they are never projected, but they must stay joinable).
func isVisible(v string) bool {
	return v != "" && v[0] != '?' && v[0] != '.'
}
