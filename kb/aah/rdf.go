package aah

import (
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// AppIRI names an application of the knowledge base (a
// schema:WebApplication) by its type ID.
func AppIRI(id string) string { return "urn:mneme:app:" + id }

// SiteIRI names a site: its root URL with the fragment "site", apart from
// the root's page (often an article or the blog's home, typed as such).
func SiteIRI(root string) string { return root + "#site" }

// ContainerIRI is the container of a site's posts or pages: the site's
// root with the application's category as fragment ("…/#blog", "…/#wiki").
func ContainerIRI(root, category string) string { return root + "#" + category }

// describe returns the function that writes, for a page's capture, the
// site and its application, the page's level and the objects extracted
// (docs/data-model.md, "Extracted objects" and "Application-aware
// crawling"). The site's statements repeat on every page, so a crawl
// resumed or cut short still has them; the store keeps one copy.
func describe(root string, res *Result) func(capture, g rdf.Term) []rdf.Quad {
	typ := res.Type
	return func(capture, g rdf.Term) []rdf.Quad {
		var out []rdf.Quad
		add := func(s rdf.Term, p string, o rdf.Term) { out = append(out, rdf.Quad{S: s, P: rdf.IRI(p), O: o, G: g}) }
		app, s := rdf.IRI(AppIRI(typ.ID)), rdf.IRI(SiteIRI(root))
		add(s, rdf.RDFType, rdf.IRI(ontology.SIOCSite))
		add(s, ontology.Application, app)
		add(app, rdf.RDFType, rdf.IRI(ontology.SchemaWebApplication))
		add(app, ontology.RDFSLabel, rdf.String(typ.Name))
		add(capture, ontology.Application, app)
		if res.Level != nil {
			add(capture, ontology.PageLevel, rdf.String(res.Level.Name))
		}
		if len(res.Objects) == 0 {
			return out
		}
		var container rdf.Term
		switch typ.Category {
		case "blog":
			container = rdf.IRI(ContainerIRI(root, typ.Category))
			add(container, rdf.RDFType, rdf.IRI(ontology.SIOCForum))
			add(container, rdf.RDFType, rdf.IRI(ontology.SIOCTWeblog))
		case "wiki":
			container = rdf.IRI(ContainerIRI(root, typ.Category))
			add(container, rdf.RDFType, rdf.IRI(ontology.SIOCTWiki))
		}
		if container.Value != "" {
			add(container, ontology.SIOCHasHost, s)
			for _, o := range res.Objects {
				switch o.Kind {
				case kb.BlogPost, kb.Comment, kb.WikiArticle:
					add(rdf.IRI(o.IRI), ontology.SIOCHasContainer, container)
				}
			}
		}
		return append(out, kb.Quads(res.Objects, capture, g)...)
	}
}
