package ontology

// The analysis layer (package analysis): per crawl, a graph
// urn:mneme:analysis:ID holding the entities the crawl's texts mention,
// each mention with its offsets, sentence and sentiment, the texts'
// languages and topic terms, the measures of every entity in the crawl,
// and what changed against the crawl analysed before it.
const (
	Analysis         = MnemeNS + "Analysis"
	AnalysedCrawl    = MnemeNS + "analysedCrawl"
	PreviousAnalysis = MnemeNS + "previousAnalysis"
	AnalysedBy       = MnemeNS + "analysedBy"
	SkipReason       = MnemeNS + "skipReason"
	TermCounts       = MnemeNS + "termCounts"
	TextLength       = MnemeNS + "textLength"
	// AwaitsFigures marks an object whose texts are analysed and whose
	// share of the crawl-wide figures is not yet written: the next run
	// updates the figures it touches, and drops the mark in the same
	// commit.
	AwaitsFigures = MnemeNS + "awaitsFigures"
	// AwaitsTopicTerms marks a text whose topic terms were computed
	// against document frequencies that have since moved (as rounded):
	// they are rewritten by a later run, within its budget, or by the
	// next run with no new text; its value is the crawl's number of
	// texts when the mark was set, which orders the queue.
	AwaitsTopicTerms = MnemeNS + "awaitsTopicTerms"
	// TextCount is the number of texts an analysis holds, and
	// PreviousTextCount that of the analysis it was compared with.
	TextCount         = MnemeNS + "textCount"
	PreviousTextCount = MnemeNS + "previousTextCount"
)

// The running totals of an analysis, in the graph urn:mneme:tallies:ID
// beside its results: what the crawl-wide figures are computed from, so
// that a rerun updates them by the texts it analysed instead of reading
// the whole analysis graph.
const (
	CrawlTally        = MnemeNS + "crawlTally"
	TextTally         = MnemeNS + "textTally"
	EntityTally       = MnemeNS + "entityTally"
	CooccurrenceTally = MnemeNS + "cooccurrenceTally"
	DocumentFrequency = MnemeNS + "documentFrequency"
)

// Entities and their mentions.
const (
	Entity        = MnemeNS + "Entity"
	Alias         = MnemeNS + "alias"
	Mention       = MnemeNS + "Mention"
	MentionOf     = MnemeNS + "mentionOf"
	InObject      = MnemeNS + "inObject"
	SurfaceForm   = MnemeNS + "surfaceForm"
	StartOffset   = MnemeNS + "startOffset"
	EndOffset     = MnemeNS + "endOffset"
	Sentence      = MnemeNS + "sentence"
	DetectedBy    = MnemeNS + "detectedBy"
	Sentiment     = MnemeNS + "sentiment"
	PositiveScore = MnemeNS + "positiveScore"
	NegativeScore = MnemeNS + "negativeScore"
	TopicTerm     = MnemeNS + "TopicTerm"
	HasTopicTerm  = MnemeNS + "hasTopicTerm"
	Term          = MnemeNS + "term"
	Weight        = MnemeNS + "weight"
)

// Measures of an entity in one crawl (after Fafalios et al., "Building and
// querying semantic layers for web archives").
const (
	EntityMeasures   = MnemeNS + "EntityMeasures"
	MeasuresOf       = MnemeNS + "measuresOf"
	InCrawl          = MnemeNS + "inCrawl"
	CrawlTime        = MnemeNS + "crawlTime"
	Popularity       = MnemeNS + "popularity"
	MentionCount     = MnemeNS + "mentionCount"
	Attitude         = MnemeNS + "attitude"
	Sentimentality   = MnemeNS + "sentimentality"
	Controversiality = MnemeNS + "controversiality"
	Connectedness    = MnemeNS + "connectedness"
)

// Across crawls: versions of an object, candidate name changes of an
// entity, and the associations of an entity crawl by crawl.
const (
	ObjectVersion     = MnemeNS + "ObjectVersion"
	VersionOf         = MnemeNS + "versionOf"
	PreviousCrawl     = MnemeNS + "previousCrawl"
	VersionStatus     = MnemeNS + "versionStatus"
	StatusDeleted     = MnemeNS + "StatusDeleted"
	DiffSummary       = MnemeNS + "diffSummary"
	WordsAdded        = MnemeNS + "wordsAdded"
	WordsRemoved      = MnemeNS + "wordsRemoved"
	NameChange        = MnemeNS + "NameChange"
	FormerName        = MnemeNS + "formerName"
	LaterName         = MnemeNS + "laterName"
	Score             = MnemeNS + "score"
	Evidence          = MnemeNS + "evidence"
	ContextSimilarity = MnemeNS + "contextSimilarity"
	Burst             = MnemeNS + "burst"
	Association       = MnemeNS + "Association"
	AssociationOf     = MnemeNS + "associationOf"
	AssociatedEntity  = MnemeNS + "associatedEntity"
	AssociatedTerm    = MnemeNS + "associatedTerm"
	Cooccurrences     = MnemeNS + "cooccurrences"
)

// Reused terms the analysis layer writes.
const (
	SchemaPerson       = SchemaNS + "Person"
	SchemaOrganization = SchemaNS + "Organization"
	SchemaPlace        = SchemaNS + "Place"
	SchemaThing        = SchemaNS + "Thing"
	OWLSameAs          = OWLNS + "sameAs"
)
