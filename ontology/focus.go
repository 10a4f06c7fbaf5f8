package ontology

// Focused crawls: the topic a crawl looks for (its terms, with weights,
// and its entities), and each capture's relevance to it. A topic's terms
// are TopicTerm nodes with a Term, as the analysis layer's (analysis.go).
const (
	Topic           = MnemeNS + "Topic"
	FocusTopic      = MnemeNS + "focusTopic"
	HasTerm         = MnemeNS + "hasTerm"
	TermWeight      = MnemeNS + "termWeight"
	FocusEntity     = MnemeNS + "focusEntity"
	EntityName      = MnemeNS + "entityName"
	Relevance       = MnemeNS + "relevance"
	TopicSimilarity = MnemeNS + "topicSimilarity"
	MatchedTerm     = MnemeNS + "matchedTerm"
	MatchedEntity   = MnemeNS + "matchedEntity"
)
