// Package adapt adapts the application knowledge base (package kb) to a
// site whose template no longer matches it, in the two cases of Faheem &
// Senellart's application-aware helper:
//
//   - a recrawl after a template change (Relearn): the objects an earlier
//     crawl stored (Known reads them from its named graph) are looked for
//     in the new pages; a field whose stored value is still in a page but
//     no longer extracted is a structural change (a value that is gone was
//     edited or deleted, and is not), and the XPath that selects the node
//     holding the value on the most pages, at least three, is proposed;
//   - a new site whose pages the KB's actions fail on (Relax,
//     RelaxNavigation): KB expressions are relaxed — a predicate dropped,
//     a tag replaced by one in the page, an attribute value by one
//     collected from the page — best case (one change per step) before
//     worst case, by number of relaxations, values of KB actions of the
//     same category first, the prefix shared with the level's detection
//     kept; a candidate is proposed once it works on at least three pages
//     of the level.
//
// In a crawl, a Session does both as pages arrive (aah.Options.Observe:
// Session.ObserveResult), fetching its sample pages through the crawl so
// that they are archived, and relaxes a level's detection (RelaxLevel)
// once three pages navigation led to as that level matched none.
//
// Proposals are kept with their provenance (site, time, pages) in a
// learned file (Learned, in the data folder's kb/learned.yaml) loaded
// alongside the shipped KB (Apply): they add alternatives and remove
// none. Learned is also the review API — List, PreviewOn (extraction of a
// stored page before and after), Accept, Reject — for the TUI, the
// control API and `mneme kb learned`.
package adapt
