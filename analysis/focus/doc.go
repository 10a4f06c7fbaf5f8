// Package focus is the online analysis of a focused crawl (ARCOMEM's
// intelligent crawl definitions): from a crawl's focus section (keywords,
// entities, example documents, languages) it builds a topic vector, and
// for every fetched page it scores each link to follow with weighted
// analysis modules, so that the crawl spends its requests on relevant
// pages.
//
// # Modules
//
// Each module gives a value in [0, 1] or none:
//
//   - document: cosine of the page's term vector with the topic (of the
//     page's content parts where the application-aware helper found them,
//     else of its text without navigation chrome), propagated to every link;
//   - paragraph: cosine of the text of the block around the link;
//   - anchor: cosine of the link's anchor text;
//   - entities: share of the spec's entities (names and aliases, matched
//     with an Aho-Corasick automaton) the page mentions, propagated;
//   - url: the score of the first URL rule (regex or SURT prefix) the
//     link matches, 0 when none does;
//   - social: how often and how recently the link was shared in the
//     crawl's linked social campaign (a Shares source; none by default);
//   - site: how close to the topic the pages already crawled in the
//     link's folder were (siteModel, learnt while the crawl runs): on
//     documentation webs, whose navigation links (menus, next and
//     previous, language bars) all look alike, it tells a folder of
//     pages on the topic from one of pages off it.
//
// A link's score is Σ wₘ·vₘ / Σ wₘ over the modules that gave a value,
// in [0, 1]. Links to blacklisted hosts or matching blacklisted patterns
// are dropped. Every link's module values are kept (Explain), combined
// over its sightings by the crawl's update function as the frontier
// combines their scores (under SUM and AVG a module's value sums or
// averages the sightings that gave one), so that new weights
// (SetWeights) rescore the queued URLs. In a crawl, links to pages it
// has fetched and analysed already are dropped before any analysis:
// their place in the frontier no longer changes, so a URL's explanation
// counts the sightings before its page was fetched.
//
// # Cost
//
// Work that repeats across a site's pages is done once: the term counts
// of a line of text (a block of the content text) that comes back on
// other pages are kept by stem id (text's block cache), the cosine of a
// link text and the URL rules' score of a URL are kept by a hash of the
// string, and each word is stemmed once (text's word cache). All these
// caches are bounded.
//
// # Relevance
//
// Each page gets a relevance (the aggregate of its document-level
// modules), its cosine with the topic, the topic terms and entities it
// matched; in a crawl they are stored with its capture in RDF, and the
// harvest ratio (share of pages whose cosine exceeds the threshold) is
// followed over time.
package focus
