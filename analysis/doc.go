// Package analysis is the analysis layer of the archive: for one crawl it
// reads the texts the crawl stored (posts, comments and wiki pages the
// application-aware helper extracted, as sioc:content), finds the
// entities they mention (package nlp: language, named entities, a
// dictionary of known names, sentiment, terms), and writes what it found
// into the crawl's analysis graph urn:mneme:analysis:ID, linked to the
// objects and captures it read (PROV): mentions with offsets, sentence
// and sentiment; entities, one IRI per real entity across documents and
// crawls; topic terms (TF-IDF against the crawl); the measures of every
// entity in the crawl after Fafalios et al. (popularity, attitude,
// sentimentality, controversiality, connectedness); its associations;
// and, against the crawl analysed before it, the versions of each object
// (new, changed, unchanged, deleted) and candidate name changes (NEER:
// burst and context similarity, proposals with evidence, never merged).
//
// The job is incremental and crash-safe: each capture's results are
// committed with the marker "capture mneme:analysedBy analysis" (and its
// objects marked mneme:awaitsFigures) in one atomic batch, a run reads
// only the captures without it, and at its end, in one commit that
// drops the objects' marks, updates the crawl's running totals (graph
// urn:mneme:tallies:ID: each text's share, per entity and per term
// totals) by those objects' texts and writes anew from the totals the
// crawl-wide figures those objects can change (the entities they name,
// their versions, their texts' topic terms, the name changes). The topic
// terms of other texts that a term's document frequency makes outdated
// are rewritten a bounded number per run, the rest marked
// mneme:awaitsTopicTerms for a later run (a run with nothing new rewrites
// them all). So a run costs the new captures and what they touch, every
// text without that mark has the figures an analysis of the whole crawl
// gives it, and a run killed at any moment and run again leaves the graph
// the same run without interruption leaves. docs/analysis.md describes
// the graph and the queries researchers ask of it.
package analysis
