// Package nlp reads one text the way the analysis layer needs it: its
// language (whatlanggo's trigram profiles), its sentences, the entities it
// mentions (persons and places by prose's maximum-entropy recogniser, whose
// model ships in its module; runs of proper nouns; the names of a
// Dictionary), each mention resolved to one entity key with its offsets,
// sentence and that sentence's sentiment (VADER), and the text's most
// frequent terms for TF-IDF topics. It knows nothing of crawls or RDF.
package nlp
