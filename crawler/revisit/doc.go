// Package revisit decides when the crawler fetches a URL again, and what a
// revisit found: the scheduling half of incremental crawling after Kristinn
// Sigurðsson's "Adaptive Revisiting with Heritrix" (MSc thesis, University of
// Iceland, 2005) and Heritrix 1.x's AdaptiveRevisitFrontier, plus a policy
// that estimates each URL's change rate.
//
// Everything here is pure and clock-driven: callers pass the time of each
// visit (read from a crawler/clock.Clock), so the crawler and the
// simulator in revisit/sim run the same code.
//
// The pieces:
//
//   - [State]: the per-URL record the frontier stores (visits, versions,
//     last digest and validators, current wait, next due time, belief
//     about the change rate), with a compact binary encoding.
//   - [Policy]: how long to wait after a visit. [Adaptive] is the thesis's
//     heuristic ("ar"): [Evaluator]s chosen by content type multiply or
//     divide the wait. [Poisson] keeps a [Belief] about each URL's change
//     rate and visits it when the expected value of a visit reaches the
//     queue's yield per request, under a politeness budget. [Uniform] is
//     the baseline.
//   - [Detector]: change detection by SHA-1 of the content after stripping
//     volatile sections, optionally "close enough" by Broder shingles.
//   - [ConditionalHeaders], [Scheme4] and [Trust]: conditional requests and
//     header-based prediction of change.
//   - [Annotation]: the crawl.log annotation of a visit.
package revisit
