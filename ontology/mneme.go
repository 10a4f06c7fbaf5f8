package ontology

// Crawls: a crawl is a prov:Activity following a prov:Plan. The IRI of a
// crawl also names the graph that holds everything the crawl wrote.
const (
	Crawl         = MnemeNS + "Crawl"
	CrawlSpec     = MnemeNS + "CrawlSpec"
	Specification = MnemeNS + "specification"
	UserAgent     = MnemeNS + "userAgent"
	Seed          = MnemeNS + "seed"
	Scope         = MnemeNS + "scope"
	MaxHops       = MnemeNS + "maxHops"
	MaxCaptures   = MnemeNS + "maxCaptures"
	Keyword       = MnemeNS + "keyword"
	Campaign      = MnemeNS + "campaign"
)

// Web resources and captures: one capture per fetch, pointing to the WARC
// record that holds its bytes.
const (
	WebResource   = MnemeNS + "WebResource"
	Capture       = MnemeNS + "Capture"
	URL           = MnemeNS + "url"
	HTTPStatus    = MnemeNS + "httpStatus"
	MIMEType      = MnemeNS + "mimeType"
	ContentLength = MnemeNS + "contentLength"
	PayloadDigest = MnemeNS + "payloadDigest"
	WARCFile      = MnemeNS + "warcFile"
	WARCOffset    = MnemeNS + "warcOffset"
	WARCRecordID  = MnemeNS + "warcRecordId"
	FetchError    = MnemeNS + "fetchError"
	HopPath       = MnemeNS + "hopPath"
	Via           = MnemeNS + "via"
)

// Hop types, with their one-letter codes as used in hop paths.
const (
	HopType         = MnemeNS + "hopType"
	HopKind         = MnemeNS + "HopKind"
	HopCode         = MnemeNS + "hopCode"
	HopLink         = MnemeNS + "HopLink"
	HopEmbed        = MnemeNS + "HopEmbed"
	HopRedirect     = MnemeNS + "HopRedirect"
	HopPrerequisite = MnemeNS + "HopPrerequisite"
	HopSpeculative  = MnemeNS + "HopSpeculative"
	HopInferred     = MnemeNS + "HopInferred"
)

// Revisits: change status of a capture against the previous capture of its
// URL, deduplicated payloads, and the revisit scheduler's figures after a
// capture (incremental crawls).
const (
	ChangeStatus    = MnemeNS + "changeStatus"
	ChangeKind      = MnemeNS + "ChangeKind"
	StatusNew       = MnemeNS + "StatusNew"
	StatusChanged   = MnemeNS + "StatusChanged"
	StatusUnchanged = MnemeNS + "StatusUnchanged"
	StatusUnknown   = MnemeNS + "StatusUnknown"
	DuplicateOf     = MnemeNS + "duplicateOf"
	VisitCount      = MnemeNS + "visitCount"
	VersionCount    = MnemeNS + "versionCount"
	RevisitWait     = MnemeNS + "revisitWait"
	Overdue         = MnemeNS + "overdue"
	NextVisit       = MnemeNS + "nextVisit"
)

// Hyperlinks found in captured pages: links and embeds as one statement
// from the capture to the target, other references as Link nodes.
const (
	LinksTo    = MnemeNS + "linksTo"
	Embeds     = MnemeNS + "embeds"
	LinkText   = MnemeNS + "linkText"
	Link       = MnemeNS + "Link"
	LinkSource = MnemeNS + "linkSource"
	LinkTarget = MnemeNS + "linkTarget"
	AnchorText = MnemeNS + "anchorText"
)

// Application-aware crawling: detected web applications, page levels,
// crawling actions and the patterns learned for one site.
const (
	Application      = MnemeNS + "application"
	PageLevel        = MnemeNS + "pageLevel"
	CrawlingAction   = MnemeNS + "CrawlingAction"
	NavigationAction = MnemeNS + "NavigationAction"
	ExtractionAction = MnemeNS + "ExtractionAction"
	LearnedPattern   = MnemeNS + "LearnedPattern"
	Selector         = MnemeNS + "selector"
	TargetLevel      = MnemeNS + "targetLevel"
	Extracts         = MnemeNS + "extracts"
	AppliedAction    = MnemeNS + "appliedAction"
	Site             = MnemeNS + "site"
	PagesChecked     = MnemeNS + "pagesChecked"
)

// Extracted objects: mneme's one addition to the SIOC and schema.org terms.
const (
	MatchedKeyword = MnemeNS + "matchedKeyword"
)
