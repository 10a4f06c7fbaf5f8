package syntax

// Static checks of SPARQL 1.1 that the grammar alone does not express
// (§18.2.1 variable scope, §18.2.4.1 grouping, §19.8 grammar notes).

// HasAggregation reports whether q groups its solutions: GROUP BY or an
// aggregate in SELECT, HAVING or ORDER BY.
func HasAggregation(q *Query) bool {
	if len(q.GroupBy) > 0 || len(q.Having) > 0 {
		return true
	}
	for _, it := range q.Project {
		if containsAggregate(it.Expr) {
			return true
		}
	}
	for _, o := range q.OrderBy {
		if containsAggregate(o.Expr) {
			return true
		}
	}
	return false
}

func containsAggregate(e Expr) bool {
	found := false
	WalkExpr(e, func(x Expr) bool {
		if _, ok := x.(*Aggregate); ok {
			found = true
		}
		return !found
	})
	return found
}

// checkSelect checks the projection of a SELECT query or sub-select that
// starts at byte offset start; itemPos holds each SELECT item's offset.
func (p *parser) checkSelect(q *Query, start int, itemPos []int) {
	agg := HasAggregation(q)
	if agg && q.Star {
		p.failAt(start, "SELECT * is not allowed with GROUP BY or aggregates")
	}
	scope := map[string]bool{}
	inScope(q.Where, scope)
	grouped := map[string]bool{}
	for _, c := range q.GroupBy {
		if c.Var != "" {
			grouped[c.Var] = true
		} else if v, ok := c.Expr.(*Var); ok {
			grouped[v.Name] = true
		}
	}
	projected := map[string]bool{}
	for i, it := range q.Project {
		at := itemPos[i]
		if it.Expr == nil {
			if agg && !grouped[it.Var] {
				p.failAt(at, "?"+it.Var+" is projected but neither grouped nor aggregated")
			}
			projected[it.Var] = true
			continue
		}
		if scope[it.Var] {
			p.failAt(at, "SELECT expression binds ?"+it.Var+", which is already in scope in WHERE")
		}
		if projected[it.Var] {
			p.failAt(at, "?"+it.Var+" is projected twice")
		}
		if agg {
			if v := ungroupedVar(it.Expr, grouped); v != "" {
				p.failAt(at, "?"+v+" is used in a SELECT expression but neither grouped nor aggregated")
			}
			grouped[it.Var] = true // later expressions may use it
		}
		projected[it.Var] = true
	}
}

// ungroupedVar returns a variable of e, outside aggregates, that is not in
// grouped, or "".
func ungroupedVar(e Expr, grouped map[string]bool) string {
	bad := ""
	WalkExpr(e, func(x Expr) bool {
		switch x := x.(type) {
		case *Aggregate:
			return false
		case *Var:
			if !grouped[x.Name] && bad == "" {
				bad = x.Name
			}
		}
		return bad == ""
	})
	return bad
}

// checkBind rejects BIND(... AS ?v) when ?v is already in scope in the
// group's preceding elements (§18.2.1).
func (p *parser) checkBind(g *Group, b *Bind, start int) {
	scope := map[string]bool{}
	for _, e := range g.Elems {
		inScope(e, scope)
	}
	if scope[b.Var] {
		p.failAt(start, "BIND assigns ?"+b.Var+", which is already in scope")
	}
}

// inScope adds the variables in scope of pattern pt (§18.2.1) to set.
func inScope(pt Pattern, set map[string]bool) {
	visitVars(pt, func(v string) { set[v] = true })
}

// ProjectedVars returns the variables a SELECT query returns, in order:
// the SELECT list, or for SELECT * the in-scope variables of WHERE in
// order of first appearance.
func ProjectedVars(q *Query) []string {
	if !q.Star {
		out := make([]string, len(q.Project))
		for i, it := range q.Project {
			out[i] = it.Var
		}
		return out
	}
	var out []string
	seen := map[string]bool{}
	visitVars(q.Where, func(v string) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	})
	if q.Values != nil {
		for _, v := range q.Values.Vars {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// visitVars calls fn on the in-scope variables of pt in order of
// appearance (with repeats).
func visitVars(pt Pattern, fn func(string)) {
	switch x := pt.(type) {
	case *Group:
		if x == nil {
			return
		}
		for _, e := range x.Elems {
			visitVars(e, fn)
		}
	case *BGP:
		for _, t := range x.Triples {
			for _, n := range [...]Node{t.S, t.P, t.O} {
				if n.IsVar() {
					fn(n.Var)
				}
			}
		}
	case *Optional:
		visitVars(x.Group, fn)
	case *Union:
		for _, g := range x.Groups {
			visitVars(g, fn)
		}
	case *Graph:
		if x.Name.IsVar() {
			fn(x.Name.Var)
		}
		visitVars(x.Group, fn)
	case *Service:
		if x.Name.IsVar() {
			fn(x.Name.Var)
		}
		visitVars(x.Group, fn)
	case *Bind:
		fn(x.Var)
	case *Values:
		for _, v := range x.Vars {
			fn(v)
		}
	case *SubSelect:
		for _, v := range ProjectedVars(x.Query) {
			fn(v)
		}
	}
}
