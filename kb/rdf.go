package kb

import (
	"hash/fnv"
	"strconv"
	"time"

	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// Quads describes objects extracted from one capture in RDF, in graph g
// (the crawl's graph): each object prov:wasDerivedFrom the capture, typed
// after its kind, with the properties of its fields (docs/data-model.md,
// "Extracted objects"). Accounts are named by their profile URL when the
// page gives one, else by a blank node of the object.
func Quads(objs []Object, capture, g rdf.Term) []rdf.Quad {
	var out []rdf.Quad
	add := func(s rdf.Term, p string, o rdf.Term) {
		out = append(out, rdf.Quad{S: s, P: rdf.IRI(p), O: o, G: g})
	}
	typ := func(s rdf.Term, class string) { add(s, rdf.RDFType, rdf.IRI(class)) }
	for _, o := range objs {
		s := rdf.IRI(o.IRI)
		// Blank node labels carry a hash of the object's IRI: those of two
		// objects stay apart, and an object extracted from two captures
		// (a post on each of its comment pages) keeps one account.
		h := fnv.New64a()
		h.Write([]byte(o.IRI))
		prefix := "o" + strconv.FormatUint(h.Sum64(), 36) + "-"
		add(s, ontology.ProvWasDerivedFrom, capture)
		switch o.Kind {
		case BlogPost:
			typ(s, ontology.SIOCPost)
			typ(s, ontology.SIOCTBlogPost)
			typ(s, ontology.SchemaBlogPosting)
		case Comment:
			typ(s, ontology.SIOCPost)
			typ(s, ontology.SIOCTComment)
		case ForumPost:
			typ(s, ontology.SIOCPost)
			typ(s, ontology.SchemaDiscussionForumPosting)
		case WikiArticle:
			typ(s, ontology.SIOCTWikiArticle)
		case WikiRevision:
			typ(s, ontology.SIOCPost)
		case WebPage:
			typ(s, ontology.SchemaWebPage)
		}
		lit := func(p, v string) {
			if v != "" {
				add(s, p, rdf.String(v))
			}
		}
		date := func(p string, t time.Time) {
			if !t.IsZero() {
				add(s, p, rdf.Literal(t.Format(time.RFC3339), rdf.XSDDateTime))
			}
		}
		lit(ontology.DCTermsTitle, o.Title)
		lit(ontology.SIOCContent, o.Content)
		lit(ontology.DCTermsIdentifier, o.ID)
		lit(ontology.SIOCNote, o.Note)
		date(ontology.DCTermsCreated, o.Date)
		date(ontology.DCTermsModified, o.Modified)
		if o.ReplyTo != "" {
			add(s, ontology.SIOCReplyOf, rdf.IRI(o.ReplyTo))
		}
		if o.VersionOf != "" {
			add(s, ontology.DCTermsIsVersionOf, rdf.IRI(o.VersionOf))
		}
		if o.Author != "" || o.AuthorURL != "" {
			acc := rdf.Blank(prefix + "account")
			if o.AuthorURL != "" {
				acc = rdf.IRI(o.AuthorURL)
			}
			add(s, ontology.SIOCHasCreator, acc)
			add(acc, rdf.RDFType, rdf.IRI(ontology.SIOCUserAccount))
			if o.Author != "" {
				add(acc, ontology.SIOCName, rdf.String(o.Author))
			}
		}
		topics := func(names []string, class string, n int) {
			for j, name := range names {
				t := rdf.Blank(prefix + "topic" + strconv.Itoa(n) + "x" + strconv.Itoa(j))
				add(s, ontology.SIOCTopic, t)
				add(t, rdf.RDFType, rdf.IRI(class))
				add(t, ontology.RDFSLabel, rdf.String(name))
			}
		}
		topics(o.Tags, ontology.SIOCTTag, 0)
		topics(o.Categories, ontology.SIOCTCategory, 1)
	}
	return out
}
