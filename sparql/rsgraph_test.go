package sparql_test

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/mneme-archive/mneme/internal/w3c"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/rdfio"
	"github.com/mneme-archive/mneme/sparql/results"
)

const rs = "http://www.w3.org/2001/sw/DataAccess/tests/result-set#"

// readResultGraph reads a result set written as RDF in the DAWG
// result-set vocabulary (the SPARQL 1.0 suite's .ttl and .rdf results).
func readResultGraph(path, base string) (*results.Results, error) {
	in, err := rdfio.Open(path, nil, rdf.ParseOptions{Base: base})
	if err != nil {
		return nil, err
	}
	defer in.Close()
	quads, err := w3c.Collect(in)
	if err != nil {
		return nil, err
	}
	var set *w3c.Node
	g := w3c.NewGraph(quads)
	for _, q := range quads {
		if q.P.Value == rdf.RDFType && q.O == rdf.IRI(rs+"ResultSet") {
			n := g.Node(q.S)
			set = &n
		}
	}
	if set == nil {
		return nil, fmt.Errorf("%s: no rs:ResultSet", path)
	}
	out := &results.Results{}
	if b := set.Get(rs + "boolean"); !b.IsZero() {
		out.Ask, out.Boolean = true, b.Term.Value == "true"
		return out, nil
	}
	for _, v := range set.All(rs + "resultVariable") {
		out.Vars = append(out.Vars, v.Term.Value)
	}
	type indexed struct {
		i   int
		row []rdf.Term
	}
	var rows []indexed
	for _, sol := range set.All(rs + "solution") {
		row := make([]rdf.Term, len(out.Vars))
		for _, b := range sol.All(rs + "binding") {
			name := b.Text(rs + "variable")
			for i, v := range out.Vars {
				if v == name {
					row[i] = b.Get(rs + "value").Term
				}
			}
		}
		idx := 0
		if s := sol.Text(rs + "index"); s != "" {
			idx, _ = strconv.Atoi(s)
		}
		rows = append(rows, indexed{idx, row})
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].i < rows[b].i })
	for _, r := range rows {
		out.Rows = append(out.Rows, r.row)
	}
	return out, nil
}
