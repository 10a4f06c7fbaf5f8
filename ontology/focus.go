package ontology

// Focused crawls: the topic a crawl looks for (its terms, with weights,
// and its entities), and each capture's relevance to it.
const (
	Topic           = MnemeNS + "Topic"
	TopicTerm       = MnemeNS + "TopicTerm"
	FocusTopic      = MnemeNS + "focusTopic"
	HasTerm         = MnemeNS + "hasTerm"
	Term            = MnemeNS + "term"
	TermWeight      = MnemeNS + "termWeight"
	FocusEntity     = MnemeNS + "focusEntity"
	EntityName      = MnemeNS + "entityName"
	Relevance       = MnemeNS + "relevance"
	TopicSimilarity = MnemeNS + "topicSimilarity"
	MatchedTerm     = MnemeNS + "matchedTerm"
	MatchedEntity   = MnemeNS + "matchedEntity"
)
