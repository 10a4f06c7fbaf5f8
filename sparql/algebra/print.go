package algebra

import (
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/sparql/syntax"
)

// String prints op as an indented S-expression, one operator per line,
// in the style of SPARQL's SSE: (project (?s) (bgp (triple ?s <p> ?o))).
func String(op Op) string { return Format(op, nil) }

// Format prints op like String; when note is set, each operator's line is
// prefixed by note(op) in a left column (--explain puts estimated and
// actual row counts there).
func Format(op Op, note func(Op) string) string {
	pr := &printer{note: note}
	pr.op(op, 0)
	width := 0
	for _, l := range pr.lines {
		width = max(width, len(l.note))
	}
	var b strings.Builder
	for _, l := range pr.lines {
		if note != nil {
			b.WriteString(strings.Repeat(" ", width-len(l.note)))
			b.WriteString(l.note)
			b.WriteString("  ")
		}
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.String()
}

type line struct{ note, text string }

type printer struct {
	note  func(Op) string
	lines []line
}

// open starts a line for op at the given depth.
func (p *printer) open(op Op, depth int, text string) {
	n := ""
	if p.note != nil && op != nil {
		n = p.note(op)
	}
	p.lines = append(p.lines, line{note: n, text: strings.Repeat("  ", depth) + text})
}

// close appends closing parentheses to the last line.
func (p *printer) close() { p.lines[len(p.lines)-1].text += ")" }

func (p *printer) op(op Op, d int) {
	switch x := op.(type) {
	case *BGP:
		if len(x.Triples) <= 1 {
			s := "(bgp"
			for _, t := range x.Triples {
				s += " " + tripleSSE(t)
			}
			p.open(op, d, s+")")
			return
		}
		p.open(op, d, "(bgp")
		for _, t := range x.Triples {
			p.open(nil, d+1, tripleSSE(t))
		}
		p.close()
		return
	case *Path:
		p.open(op, d, "(path "+x.S.String()+" "+string(x.Path.AppendSSE(nil))+" "+x.O.String()+")")
		return
	case *Table:
		p.open(op, d, tableSSE(x))
		return
	case *Join:
		p.open(op, d, "(join")
	case *LeftJoin:
		p.open(op, d, "(leftjoin")
	case *Union:
		p.open(op, d, "(union")
	case *Minus:
		p.open(op, d, "(minus")
	case *Filter:
		p.open(op, d, "(filter "+exprsSSE(x.Exprs))
	case *Graph:
		p.open(op, d, "(graph "+x.Name.String())
	case *Service:
		s := "(service "
		if x.Silent {
			s += "silent "
		}
		p.open(op, d, s+x.Name.String())
	case *Extend:
		p.open(op, d, "(extend ((?"+x.Var+" "+syntax.ExprString(x.Expr)+"))")
	case *Group:
		var b strings.Builder
		b.WriteString("(group (")
		for i, k := range x.Keys {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("(?" + k.Var + " " + syntax.ExprString(k.Expr) + ")")
		}
		b.WriteString(") (")
		for i, a := range x.Aggs {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("(?" + a.Var + " " + syntax.ExprString(a.Agg) + ")")
		}
		b.WriteString(")")
		p.open(op, d, b.String())
	case *OrderBy:
		parts := make([]string, len(x.Conds))
		for i, c := range x.Conds {
			parts[i] = syntax.ExprString(c.Expr)
			if c.Desc {
				parts[i] = "(desc " + parts[i] + ")"
			}
		}
		p.open(op, d, "(order ("+strings.Join(parts, " ")+")")
	case *Project:
		p.open(op, d, "(project ("+varsSSE(x.Vars)+")")
	case *Distinct:
		p.open(op, d, "(distinct")
	case *Reduced:
		p.open(op, d, "(reduced")
	case *Slice:
		lim := "_"
		if x.Limit >= 0 {
			lim = strconv.FormatInt(x.Limit, 10)
		}
		p.open(op, d, "(slice "+strconv.FormatInt(x.Offset, 10)+" "+lim)
	}
	for _, c := range Children(op) {
		p.op(c, d+1)
	}
	if lj, ok := op.(*LeftJoin); ok && lj.Expr != nil {
		p.open(nil, d+1, syntax.ExprString(lj.Expr))
	}
	p.close()
}

func tripleSSE(t syntax.Triple) string {
	return "(triple " + t.S.String() + " " + t.P.String() + " " + t.O.String() + ")"
}

func exprsSSE(es []syntax.Expr) string {
	if len(es) == 1 {
		return syntax.ExprString(es[0])
	}
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = syntax.ExprString(e)
	}
	return "(exprlist " + strings.Join(parts, " ") + ")"
}

func varsSSE(vs []string) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = "?" + v
	}
	return strings.Join(parts, " ")
}

func tableSSE(t *Table) string {
	switch {
	case IsUnit(t):
		return "(table unit)"
	case len(t.Vars) == 0 && len(t.Rows) == 0:
		return "(table empty)" // as Jena's SSE writes the empty sequence
	}
	var b strings.Builder
	b.WriteString("(table (vars " + varsSSE(t.Vars) + ")")
	for _, row := range t.Rows {
		b.WriteString(" (row")
		for i, v := range row {
			if v.IsZero() {
				continue
			}
			b.WriteString(" [?" + t.Vars[i] + " " + v.String() + "]")
		}
		b.WriteString(")")
	}
	b.WriteString(")")
	return b.String()
}
