package analysis

import (
	"context"
	"strings"
	"unicode"

	"github.com/mneme-archive/mneme/analysis/nlp"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

// prefixes of the queries the analysis runs.
const prefixes = `PREFIX mneme: <https://w3id.org/mneme#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX sioc: <http://rdfs.org/sioc/ns#>
PREFIX foaf: <http://xmlns.com/foaf/0.1/>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX schema: <http://schema.org/>
`

// each runs a SELECT query (the prefixes above added) on v and calls fn
// with every row.
func each(ctx context.Context, v *graph.View, q string, fn func(row []rdf.Term) error) error {
	return sparql.Each(ctx, v, prefixes+q, fn)
}

// storeNames are the names of people the store knows: foaf:name of
// persons, and the sioc:name of accounts that looks like a first and
// last name (two or more capitalised words).
func storeNames(ctx context.Context, v *graph.View) ([]nlp.Known, error) {
	seen := map[string]bool{}
	var out []nlp.Known
	err := each(ctx, v, `SELECT DISTINCT ?n WHERE { { ?p foaf:name ?n } UNION { ?a a sioc:UserAccount ; sioc:name ?n } }`,
		func(row []rdf.Term) error {
			n := strings.Join(strings.Fields(row[0].Value), " ")
			ws := strings.Fields(n)
			if len(ws) < 2 || len(ws) > 4 || seen[n] {
				return nil
			}
			for _, w := range ws {
				r := []rune(w)
				if !unicode.IsUpper(r[0]) {
					return nil
				}
			}
			seen[n] = true
			out = append(out, nlp.Known{Name: n, Type: nlp.Person})
			return nil
		})
	return out, err
}
