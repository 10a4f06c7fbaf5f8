package ontology

// ASNS is the namespace of ActivityStreams 2.0, whose terms describe boosts
// and deleted posts.
const ASNS = "https://www.w3.org/ns/activitystreams#"

// Social campaigns (package social): the (query, platform) pairs of a
// campaign and their checkpoints, the observations of posts and accounts
// with their counts at that time.
const (
	QueryPair      = MnemeNS + "QueryPair"
	Platform       = MnemeNS + "platform"
	QueryKind      = MnemeNS + "queryKind"
	Checkpoint     = MnemeNS + "Checkpoint"
	CheckpointOf   = MnemeNS + "checkpointOf"
	Sequence       = MnemeNS + "sequence"
	Cursor         = MnemeNS + "cursor"
	Pass           = MnemeNS + "pass"
	PassDone       = MnemeNS + "passDone"
	RequestCount   = MnemeNS + "requestCount"
	Observation    = MnemeNS + "Observation"
	ObservationOf  = MnemeNS + "observationOf"
	PostCount      = MnemeNS + "postCount"
	LikeCount      = MnemeNS + "likeCount"
	RepostCount    = MnemeNS + "repostCount"
	ReplyCount     = MnemeNS + "replyCount"
	FollowerCount  = MnemeNS + "followerCount"
	FollowingCount = MnemeNS + "followingCount"
)

// Reused terms of social posts: links, media, shared posts, language.
const (
	SIOCLinksTo           = SIOCNS + "links_to"
	SchemaSharedContent   = SchemaNS + "sharedContent"
	SchemaAssociatedMedia = SchemaNS + "associatedMedia"
	DCTermsLanguage       = DCTermsNS + "language"
	ASAnnounce            = ASNS + "Announce"
	ASObject              = ASNS + "object"
	ASTombstone           = ASNS + "Tombstone"
	ASDeleted             = ASNS + "deleted"
)
