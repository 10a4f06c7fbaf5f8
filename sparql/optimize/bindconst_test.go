package optimize

import "testing"

func TestBindConstants(t *testing.T) {
	cases := []struct{ query, want string }{
		// An IRI or a string fixed by = is written into the pattern.
		{`SELECT * { ?s :p ?o FILTER(?o = :a) }`, "(project (?s ?o) (extend ((?o <http://ex/a>)) (bgp (triple ?s <http://ex/p> <http://ex/a>))))"},
		{`SELECT * { ?s :p ?o ; :q ?n FILTER("x" = ?n && ?o != :b) }`, "(project (?s ?o ?n) (filter (!= ?o <http://ex/b>) (extend ((?n \"x\")) (bgp (triple ?s <http://ex/p> ?o) (triple ?s <http://ex/q> \"x\")))))"},
		// sameTerm fixes any term; = on a number does not (1 = 1.0).
		{`SELECT * { ?s :p ?o FILTER(sameTerm(?o, 1)) }`, "(project (?s ?o) (extend ((?o 1)) (bgp (triple ?s <http://ex/p> 1))))"},
		{`SELECT * { ?s :p ?o FILTER(?o = 1) }`, "(project (?s ?o) (filter (= ?o 1) (bgp (triple ?s <http://ex/p> ?o))))"},
		// A second constant for the same variable stays a filter.
		{`SELECT * { ?s :p ?o FILTER(?o = :a && ?o = :b) }`, "(project (?s ?o) (filter (= ?o <http://ex/b>) (extend ((?o <http://ex/a>)) (bgp (triple ?s <http://ex/p> <http://ex/a>)))))"},
	}
	for _, c := range cases {
		if got := optimized(t, c.query); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.query, got, c.want)
		}
	}
}
