package adapt

import (
	"context"
	"fmt"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

// Known reads from the store the objects an earlier crawl extracted, in
// its named graph crawl: each object derived from a capture, with the
// fields relearning compares (title, author name, dates, content, id),
// grouped by the URL of the capture's page. These are the "known
// content" the paper looks for in the pages of a recrawl.
func Known(ctx context.Context, v *graph.View, crawl string) (map[string][]kb.Object, error) {
	q := fmt.Sprintf(`SELECT ?url ?o ?type ?title ?content ?created ?modified ?id ?name WHERE {
  GRAPH <%s> {
    ?o <%s> ?c . ?c <%s> ?url .
    ?o a ?type .
    FILTER(?type IN (<%s>, <%s>, <%s>, <%s>, <%s>))
    OPTIONAL { ?o <%s> ?title }
    OPTIONAL { ?o <%s> ?content }
    OPTIONAL { ?o <%s> ?created }
    OPTIONAL { ?o <%s> ?modified }
    OPTIONAL { ?o <%s> ?id }
    OPTIONAL { ?o <%s> ?acc . ?acc <%s> ?name }
  }
}`, crawl, ontology.ProvWasDerivedFrom, ontology.URL,
		ontology.SIOCTBlogPost, ontology.SIOCTComment, ontology.SchemaDiscussionForumPosting, ontology.SIOCTWikiArticle, ontology.SchemaWebPage,
		ontology.DCTermsTitle, ontology.SIOCContent, ontology.DCTermsCreated, ontology.DCTermsModified,
		ontology.DCTermsIdentifier, ontology.SIOCHasCreator, ontology.SIOCName)
	pq, err := sparql.Prepare(q, sparql.Options{})
	if err != nil {
		return nil, fmt.Errorf("known objects query: %w", err)
	}
	res, err := pq.Exec(ctx, v)
	if err != nil {
		return nil, fmt.Errorf("known objects of %s: %w", crawl, err)
	}
	defer res.Close()
	kinds := map[string]kb.ObjectKind{
		ontology.SIOCTBlogPost: kb.BlogPost, ontology.SIOCTComment: kb.Comment,
		ontology.SchemaDiscussionForumPosting: kb.ForumPost, ontology.SIOCTWikiArticle: kb.WikiArticle,
		ontology.SchemaWebPage: kb.WebPage,
	}
	out := map[string][]kb.Object{}
	index := map[string]int{} // url|iri → position in out[url]
	for res.Next() {
		row := res.Row()
		url, iri := row[0].Value, row[1].Value
		key := url + "|" + iri
		i, ok := index[key]
		if !ok {
			i = len(out[url])
			index[key] = i
			out[url] = append(out[url], kb.Object{IRI: iri, Kind: kinds[row[2].Value]})
		}
		o := &out[url][i]
		set := func(dst *string, t rdf.Term) {
			if t.Value != "" {
				*dst = t.Value
			}
		}
		set(&o.Title, row[3])
		set(&o.Content, row[4])
		setDate(&o.Date, row[5])
		setDate(&o.Modified, row[6])
		set(&o.ID, row[7])
		set(&o.Author, row[8])
	}
	return out, res.Err()
}

func setDate(dst *time.Time, t rdf.Term) {
	if t.Value == "" {
		return
	}
	if tm, err := time.Parse(time.RFC3339, t.Value); err == nil {
		*dst = tm
	}
}
