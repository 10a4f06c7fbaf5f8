package archive

import (
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/tui/screen"
)

// The browser's queries follow docs/data-model.md: every capture lies in
// its crawl's graph with mneme:url the URL fetched, and extracted objects
// are prov:wasDerivedFrom the capture they were read from.

// maxURLs bounds the URL list; the filter narrows it.
const maxURLs = "5000"

func urlsQuery() string {
	return screen.WithPrefixes(`SELECT ?url (COUNT(?capture) AS ?captures) (MIN(?time) AS ?first) (MAX(?time) AS ?last) WHERE {
  GRAPH ?crawl { ?capture mneme:url ?url ; prov:generatedAtTime ?time }
}
GROUP BY ?url
ORDER BY ?url
LIMIT ` + maxURLs + "\n")
}

func capturesQuery(url string) string {
	return screen.WithPrefixes(`SELECT ?time ?status ?change ?crawl ?file ?offset ?capture WHERE {
  GRAPH ?crawl {
    ?capture mneme:url ` + rdf.IRI(url).String() + ` ; prov:generatedAtTime ?time .
    OPTIONAL { ?capture mneme:httpStatus ?status }
    OPTIONAL { ?capture mneme:changeStatus ?change }
    OPTIONAL { ?capture mneme:warcFile ?file ; mneme:warcOffset ?offset }
  }
}
ORDER BY ?time
`)
}

// objectsQuery lists the objects extracted from a capture, one row per
// object: its types by local name, and a title.
func objectsQuery(capture string) string {
	return screen.WithPrefixes(`SELECT ?object (GROUP_CONCAT(DISTINCT REPLACE(STR(?type), "^.*[/#]", ""); separator=" ") AS ?types) (SAMPLE(?t) AS ?title) WHERE {
  GRAPH ?crawl {
    ?object prov:wasDerivedFrom ` + rdf.IRI(capture).String() + ` .
    OPTIONAL { ?object a ?type }
    OPTIONAL { ?object dcterms:title ?t }
  }
}
GROUP BY ?object
ORDER BY ?object
`)
}

// HistoryQuery lists what every crawl said about an object (the archive
// browser and the entity screen open it in the console): one row per
// property and value, oldest capture first.
func HistoryQuery(object string) string {
	return screen.WithPrefixes(`SELECT ?time ?crawl ?property ?value WHERE {
  GRAPH ?crawl {
    ` + rdf.IRI(object).String() + ` prov:wasDerivedFrom ?capture ; ?property ?value .
    ?capture prov:generatedAtTime ?time .
  }
}
ORDER BY ?time ?property
`)
}
