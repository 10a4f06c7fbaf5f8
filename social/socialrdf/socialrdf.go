// Package socialrdf maps what a social campaign collects to RDF
// (docs/data-model.md, "Social campaigns"): posts as sioc:Post and
// schema:SocialMediaPosting, accounts as sioc:UserAccount, each sighting
// of either as a mneme:Observation with its counts and the WARC record it
// was read from, the campaign's requests as mneme:Capture, and the state
// of every (query, platform) pair as mneme:Checkpoint statements in the
// campaign's state graph.
package socialrdf

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/platform"
)

// CampaignIRI is the IRI of a campaign, which is also the name of the
// graph holding everything it collected.
func CampaignIRI(id string) string { return "urn:mneme:campaign:" + id }

// StateGraph names the graph of a campaign's query pairs and checkpoints.
func StateGraph(id string) string { return CampaignIRI(id) + ":state" }

// SpecIRI names a campaign's specification.
func SpecIRI(id string) string { return CampaignIRI(id) + ":spec" }

// PairIRI names a (query, platform) pair of a campaign.
func PairIRI(campaign, platformName string, kind platform.QueryKind, text string) string {
	h := sha1.Sum([]byte(platformName + "\x00" + string(kind) + "\x00" + text))
	return CampaignIRI(campaign) + ":pair:" + hex.EncodeToString(h[:8])
}

// CheckpointIRI names the seq-th checkpoint of a pair.
func CheckpointIRI(pair string, seq int64) string { return pair + ":" + strconv.FormatInt(seq, 10) }

// TagIRI names a hashtag, the same on every platform.
func TagIRI(tag string) string { return "urn:mneme:tag:" + url.PathEscape(strings.ToLower(tag)) }

// PostIRI is a post's IRI: its public URL, else a URN from its id.
func PostIRI(p *platform.Post) string {
	if p.URL != "" {
		return p.URL
	}
	return "urn:mneme:post:" + p.Platform + ":" + url.PathEscape(p.ID)
}

// AccountIRI is an account's IRI: its profile URL, else a URN from its id
// or handle.
func AccountIRI(a *platform.Account) string {
	switch {
	case a.URL != "":
		return a.URL
	case a.ID != "":
		return "urn:mneme:account:" + a.Platform + ":" + url.PathEscape(a.ID)
	case a.Handle != "":
		return "urn:mneme:account:" + a.Platform + ":@" + url.PathEscape(a.Handle)
	}
	return ""
}

// ObservationIRI names the sighting of subject (a post or account) in the
// WARC record record.
func ObservationIRI(record, kind, id string) string {
	return record + "#" + kind + "-" + url.PathEscape(id)
}

// Writer appends the quads of one campaign's graph. Text goes through
// Clean, which removes credentials.
type Writer struct {
	G     rdf.Term            // the campaign's graph
	Clean func(string) string // applied to every literal and IRI taken from platform data
	// described, when not nil, remembers the accounts and hashtags whose
	// description (type, platform, identifier, names; a tag's type and
	// label) the writer has given, so that it is given once and not with
	// every post and page that names them (see Remember).
	described *memo
	// seen and seenTerm are the last sighting time given and its literal:
	// a page's posts and accounts share one.
	seen     time.Time
	seenTerm rdf.Term
}

// Remember makes the writer state the description of an account or a
// hashtag once, not again while it remembers it (at most max of them,
// the ones in use kept): for a writer whose every output reaches the
// store in order. After output that did not reach the store, call Forget.
func (w *Writer) Remember(max int) { w.described = newMemo(max) }

// Forget makes the writer state every description again.
func (w *Writer) Forget() {
	if w.described != nil {
		w.described = newMemo(w.described.max)
	}
}

// fresh reports whether the description of iri, stating what stated
// says, is to be given (and notes it given).
func (w *Writer) fresh(iri string, stated described) bool {
	if w.described == nil {
		return true
	}
	return w.described.add(iri, stated)
}

// described is what an account's description states besides its IRI
// (a changed name is stated again); nothing for a hashtag.
type described struct{ platform, id, handle, name string }

// memo is a bounded map in two generations, from the IRI of a resource
// described to what its description stated: when the current one is full
// it becomes the old one, the one before dropped; an entry found in the
// old one moves to the current one, so that those in use survive. turns
// counts the generations begun, changed the entries of the current one
// given another description: while neither moves, an entry of the
// current one stays as it is.
type memo struct {
	cur, old       map[string]described
	max            int
	turns, changed int
}

func newMemo(max int) *memo { return &memo{cur: map[string]described{}, max: max} }

// add notes iri's description stating d and reports whether it was new.
func (m *memo) add(iri string, d described) bool {
	v, ok := m.cur[iri]
	if ok && v == d {
		return false
	}
	if ok {
		m.changed++
	}
	v, had := m.old[iri]
	had = had && v == d
	if len(m.cur) >= m.max {
		m.old, m.cur = m.cur, make(map[string]described, m.max)
		m.turns++
	}
	m.cur[iri] = d
	return !had
}

// NewWriter writes into the graph of campaign.
func NewWriter(campaign string, clean func(string) string) *Writer {
	if clean == nil {
		clean = func(s string) string { return s }
	}
	return &Writer{G: rdf.IRI(CampaignIRI(campaign)), Clean: clean}
}

func (w *Writer) q(dst []rdf.Quad, s rdf.Term, p string, o rdf.Term) []rdf.Quad {
	return append(dst, rdf.Quad{S: s, P: rdf.IRI(p), O: o, G: w.G})
}

func (w *Writer) iri(s string) rdf.Term { return rdf.IRI(w.Clean(s)) }
func (w *Writer) str(s string) rdf.Term { return rdf.String(w.Clean(s)) }

// Sighting says where and when posts and accounts were seen.
type Sighting struct {
	Record string    // the WARC-Record-ID (urn:uuid:…) the data was read from; "" when unknown
	At     time.Time // when
	Query  string    // the keyword or hashtag whose search returned the post; "" for other queries
}

// Post appends the statements of a post seen once. The post's own
// statements are the same at every sighting (so the store keeps them
// once); the sighting adds an observation with the counts of that time.
// An edited post's text and modification time go on the observation,
// the post keeping the text as first seen unedited; a deleted one is an
// as:Tombstone.
func (w *Writer) Post(dst []rdf.Quad, p *platform.Post, s Sighting) []rdf.Quad {
	post := w.iri(PostIRI(p))
	dst = w.q(dst, post, rdf.RDFType, rdf.IRI(ontology.SIOCPost))
	if p.Platform == "feed" {
		dst = w.q(dst, post, rdf.RDFType, rdf.IRI(ontology.SchemaBlogPosting))
	} else {
		dst = w.q(dst, post, rdf.RDFType, rdf.IRI(ontology.SchemaSocialMediaPosting))
	}
	dst = w.q(dst, post, ontology.Platform, rdf.String(p.Platform))
	if p.ID != "" {
		dst = w.q(dst, post, ontology.DCTermsIdentifier, w.str(p.ID))
	}
	if p.Title != "" {
		dst = w.q(dst, post, ontology.DCTermsTitle, w.str(p.Title))
	}
	if p.Lang != "" {
		dst = w.q(dst, post, ontology.DCTermsLanguage, rdf.String(p.Lang))
	}
	if !p.Created.IsZero() {
		dst = w.q(dst, post, ontology.DCTermsCreated, DateTime(p.Created))
	}
	if a := AccountIRI(&p.Author); a != "" {
		dst = w.q(dst, post, ontology.SIOCHasCreator, w.iri(a))
	}
	for _, t := range p.Hashtags {
		tag := rdf.IRI(TagIRI(w.Clean(t)))
		dst = w.q(dst, post, ontology.SIOCTopic, tag)
		if w.fresh(tag.Value, described{}) {
			dst = w.q(dst, tag, rdf.RDFType, rdf.IRI(ontology.SIOCTTag))
			dst = w.q(dst, tag, ontology.RDFSLabel, rdf.String(strings.ToLower(w.Clean(t))))
		}
	}
	for _, m := range p.Mentions {
		dst = w.q(dst, post, ontology.SchemaMentions, w.iri(m))
	}
	if p.ReplyTo != "" {
		dst = w.q(dst, post, ontology.SIOCReplyOf, w.iri(p.ReplyTo))
	}
	if p.Quotes != "" {
		dst = w.q(dst, post, ontology.SchemaSharedContent, w.iri(p.Quotes))
	}
	if p.Reposts != "" {
		dst = w.q(dst, post, rdf.RDFType, rdf.IRI(ontology.ASAnnounce))
		dst = w.q(dst, post, ontology.ASObject, w.iri(p.Reposts))
	}
	for _, m := range p.Media {
		dst = w.q(dst, post, ontology.SchemaAssociatedMedia, w.iri(m))
	}
	for _, l := range p.Links {
		dst = w.q(dst, post, ontology.SIOCLinksTo, w.iri(l))
	}
	if s.Query != "" {
		dst = w.q(dst, post, ontology.MatchedKeyword, rdf.String(s.Query))
	}
	at := s.At
	if at.IsZero() {
		at = time.Now()
	}
	obsID := p.ID
	if obsID == "" {
		obsID = PostIRI(p)
	}
	var obs rdf.Term
	if s.Record != "" {
		dst = w.q(dst, post, ontology.ProvWasDerivedFrom, rdf.IRI(s.Record))
		obs = rdf.IRI(ObservationIRI(s.Record, "post", obsID))
	} else {
		obs = rdf.IRI(ObservationIRI(PostIRI(p), "seen", at.UTC().Format(time.RFC3339Nano)))
	}
	dst = w.q(dst, obs, rdf.RDFType, rdf.IRI(ontology.Observation))
	dst = w.q(dst, obs, ontology.ObservationOf, post)
	dst = w.q(dst, obs, ontology.ProvGeneratedAtTime, w.dateTime(at))
	if s.Record != "" {
		dst = w.q(dst, obs, ontology.ProvWasDerivedFrom, rdf.IRI(s.Record))
	}
	if c := p.Counts; c != nil {
		dst = w.count(dst, obs, ontology.LikeCount, c.Likes)
		dst = w.count(dst, obs, ontology.RepostCount, c.Reposts)
		dst = w.count(dst, obs, ontology.ReplyCount, c.Replies)
	}
	switch {
	case p.Deleted:
		dst = w.q(dst, post, rdf.RDFType, rdf.IRI(ontology.ASTombstone))
		dst = w.q(dst, post, ontology.ASDeleted, DateTime(at))
	case !p.Edited.IsZero():
		dst = w.q(dst, post, ontology.DCTermsModified, DateTime(p.Edited))
		dst = w.q(dst, obs, ontology.DCTermsModified, DateTime(p.Edited))
		if p.Text != "" {
			dst = w.q(dst, obs, ontology.SIOCContent, w.str(p.Text))
		}
	case p.Text != "":
		dst = w.q(dst, post, ontology.SIOCContent, w.str(p.Text))
	}
	return dst
}

func (w *Writer) count(dst []rdf.Quad, s rdf.Term, p string, n int64) []rdf.Quad {
	if n < 0 {
		return dst
	}
	return w.q(dst, s, p, Integer(n))
}

// Account appends the statements of an account seen once: the account,
// and an observation with its counts.
func (w *Writer) Account(dst []rdf.Quad, a *platform.Account, s Sighting) []rdf.Quad {
	iri := AccountIRI(a)
	if iri == "" {
		return dst
	}
	acc := w.iri(iri)
	dst = w.describeAccount(dst, a, acc, described{a.Platform, a.ID, a.Handle, a.Name})
	return w.observeAccount(dst, a, s, iri, acc)
}

// Stated is an account's description as a writer stated it, or found it
// stated, at one point of its memory of descriptions (Remember); the
// zero Stated is none.
type Stated struct {
	iri            string
	d              described
	memo           *memo
	turns, changed int
}

// stated is the description d of iri, remembered now.
func (w *Writer) stated(iri string, d described) Stated {
	if w.described == nil {
		return Stated{}
	}
	return Stated{iri, d, w.described, w.described.turns, w.described.changed}
}

// AccountStated is Account for an account whose description the writer
// may have stated, or found stated, before: stated is what AccountStated
// returned then, or the zero Stated. When that was the same description
// and the writer's memory has not moved since (no generation begun, no
// description of another account replaced, nothing forgotten), the
// writer still remembers it, as it would find by looking it up. It
// returns a's description as remembered now, for the next time.
func (w *Writer) AccountStated(dst []rdf.Quad, a *platform.Account, s Sighting, stated Stated) ([]rdf.Quad, Stated) {
	iri := AccountIRI(a)
	if iri == "" {
		return dst, Stated{}
	}
	acc := w.iri(iri)
	d := described{a.Platform, a.ID, a.Handle, a.Name}
	now := w.stated(acc.Value, d)
	if stated.memo == nil || stated != now {
		dst = w.describeAccount(dst, a, acc, d)
		now = w.stated(acc.Value, d)
	}
	return w.observeAccount(dst, a, s, iri, acc), now
}

// describeAccount appends the description d of account a, whose IRI once
// cleaned is acc, unless the writer remembers stating it.
func (w *Writer) describeAccount(dst []rdf.Quad, a *platform.Account, acc rdf.Term, d described) []rdf.Quad {
	if w.fresh(acc.Value, d) {
		dst = w.q(dst, acc, rdf.RDFType, rdf.IRI(ontology.SIOCUserAccount))
		dst = w.q(dst, acc, ontology.Platform, rdf.String(a.Platform))
		if a.ID != "" {
			dst = w.q(dst, acc, ontology.DCTermsIdentifier, w.str(a.ID))
		}
		if a.Handle != "" {
			dst = w.q(dst, acc, ontology.SIOCName, w.str(a.Handle))
		}
		if a.Name != "" {
			dst = w.q(dst, acc, ontology.FOAFName, w.str(a.Name))
		}
	}
	return dst
}

// observeAccount appends the observation of account a, whose IRI is iri
// (acc once cleaned), if it has counts.
func (w *Writer) observeAccount(dst []rdf.Quad, a *platform.Account, s Sighting, iri string, acc rdf.Term) []rdf.Quad {
	if a.Followers < 0 && a.Following < 0 && a.Posts < 0 {
		return dst // a name met as an author: nothing observed about it
	}
	at := a.ObservedAt
	if at.IsZero() {
		at = s.At
	}
	id := a.ID
	if id == "" {
		id = a.Handle
	}
	rec := s.Record
	if rec == "" {
		rec = iri
	}
	obs := rdf.IRI(ObservationIRI(rec, "account", id))
	dst = w.q(dst, obs, rdf.RDFType, rdf.IRI(ontology.Observation))
	dst = w.q(dst, obs, ontology.ObservationOf, acc)
	dst = w.q(dst, obs, ontology.ProvGeneratedAtTime, w.dateTime(at))
	if s.Record != "" {
		dst = w.q(dst, obs, ontology.ProvWasDerivedFrom, rdf.IRI(s.Record))
	}
	dst = w.count(dst, obs, ontology.FollowerCount, a.Followers)
	dst = w.count(dst, obs, ontology.FollowingCount, a.Following)
	dst = w.count(dst, obs, ontology.PostCount, a.Posts)
	return dst
}

// Capture is one archived request of the campaign.
type Capture struct {
	Record string // the response record's WARC-Record-ID, urn:uuid:…
	URL    string // redacted
	Status int
	At     time.Time
	File   string
	Offset int64
}

// Capture appends the statements of an archived request, as the crawler
// describes its captures.
func (w *Writer) Capture(dst []rdf.Quad, campaign string, c Capture) []rdf.Quad {
	s := rdf.IRI(c.Record)
	dst = w.q(dst, s, rdf.RDFType, rdf.IRI(ontology.Capture))
	dst = w.q(dst, s, rdf.RDFType, rdf.IRI(ontology.ProvEntity))
	dst = w.q(dst, s, ontology.URL, w.iri(c.URL))
	dst = w.q(dst, s, ontology.ProvWasGeneratedBy, rdf.IRI(CampaignIRI(campaign)))
	dst = w.q(dst, s, ontology.ProvGeneratedAtTime, DateTime(c.At))
	dst = w.q(dst, s, ontology.WARCRecordID, s)
	if c.Status > 0 {
		dst = w.q(dst, s, ontology.HTTPStatus, Integer(int64(c.Status)))
	}
	if c.File != "" {
		dst = w.q(dst, s, ontology.WARCFile, rdf.String(c.File))
		dst = w.q(dst, s, ontology.WARCOffset, Integer(c.Offset))
	}
	return dst
}

// Campaign describes a campaign in its graph: a mneme:Crawl following a
// mneme:CrawlSpec that names its keywords.
func Campaign(id, agent string, started time.Time, keywords []string) []rdf.Quad {
	g, c, spec := rdf.IRI(CampaignIRI(id)), rdf.IRI(CampaignIRI(id)), rdf.IRI(SpecIRI(id))
	q := func(s rdf.Term, p string, o rdf.Term) rdf.Quad { return rdf.Quad{S: s, P: rdf.IRI(p), O: o, G: g} }
	out := []rdf.Quad{
		q(c, rdf.RDFType, rdf.IRI(ontology.Crawl)),
		q(c, rdf.RDFType, rdf.IRI(ontology.ProvActivity)),
		q(c, ontology.Specification, spec),
		q(c, ontology.ProvStartedAtTime, DateTime(started)),
		q(spec, rdf.RDFType, rdf.IRI(ontology.CrawlSpec)),
		q(spec, rdf.RDFType, rdf.IRI(ontology.ProvPlan)),
		q(spec, ontology.Campaign, rdf.String(id)),
	}
	if agent != "" {
		out = append(out, q(c, ontology.ProvWasAssociatedWith, rdf.IRI(agent)), q(rdf.IRI(agent), rdf.RDFType, rdf.IRI(ontology.ProvSoftwareAgent)))
	}
	for _, k := range keywords {
		out = append(out, q(spec, ontology.Keyword, rdf.String(k)))
	}
	return out
}

// Ended marks the campaign ended.
func Ended(id string, t time.Time) rdf.Quad {
	return rdf.Quad{S: rdf.IRI(CampaignIRI(id)), P: rdf.IRI(ontology.ProvEndedAtTime), O: DateTime(t), G: rdf.IRI(CampaignIRI(id))}
}

// Pair describes a query pair in the state graph.
type Pair struct {
	IRI      string
	Platform string
	Query    platform.Query
	Base     string // the API base URL, when not the platform's own
	Parent   string // the pair it was derived from, "" for the spec's
}

// PairQuads are a pair's statements in the campaign's state graph.
func PairQuads(campaign string, p Pair) []rdf.Quad {
	g, s := rdf.IRI(StateGraph(campaign)), rdf.IRI(p.IRI)
	q := func(pred string, o rdf.Term) rdf.Quad { return rdf.Quad{S: s, P: rdf.IRI(pred), O: o, G: g} }
	out := []rdf.Quad{
		q(rdf.RDFType, rdf.IRI(ontology.QueryPair)),
		q(ontology.Platform, rdf.String(p.Platform)),
		q(ontology.QueryKind, rdf.String(string(p.Query.Kind))),
		q(ontology.Keyword, rdf.String(p.Query.Text)),
	}
	if p.Parent != "" {
		out = append(out, q(ontology.ProvWasDerivedFrom, rdf.IRI(p.Parent)))
	}
	return out
}

// Checkpoint is the state of a pair after a committed page.
type Checkpoint struct {
	Seq      int64
	Cursor   []byte
	Pass     int64
	Done     bool // the pass has nothing more
	Requests int64
	Posts    int64
	At       time.Time
}

// CheckpointQuads are a checkpoint's statements in the state graph.
func CheckpointQuads(campaign, pair string, c Checkpoint) []rdf.Quad {
	g, s := rdf.IRI(StateGraph(campaign)), rdf.IRI(CheckpointIRI(pair, c.Seq))
	q := func(pred string, o rdf.Term) rdf.Quad { return rdf.Quad{S: s, P: rdf.IRI(pred), O: o, G: g} }
	out := []rdf.Quad{
		q(rdf.RDFType, rdf.IRI(ontology.Checkpoint)),
		q(ontology.CheckpointOf, rdf.IRI(pair)),
		q(ontology.Sequence, Integer(c.Seq)),
		q(ontology.Pass, Integer(c.Pass)),
		q(ontology.PassDone, rdf.Literal(strconv.FormatBool(c.Done), rdf.XSDBoolean)),
		q(ontology.RequestCount, Integer(c.Requests)),
		q(ontology.PostCount, Integer(c.Posts)),
		q(ontology.ProvGeneratedAtTime, DateTime(c.At)),
	}
	if c.Cursor != nil {
		out = append(out, q(ontology.Cursor, rdf.String(base64.StdEncoding.EncodeToString(c.Cursor))))
	}
	return out
}

// dateTime is DateTime, the literal of the last time given kept.
func (w *Writer) dateTime(t time.Time) rdf.Term {
	if w.seenTerm.Value == "" || !t.Equal(w.seen) {
		w.seen, w.seenTerm = t, DateTime(t)
	}
	return w.seenTerm
}

// dateTimeLayout is DateTime's form, as time.Format writes it.
const dateTimeLayout = "2006-01-02T15:04:05.000Z07:00"

// DateTime is t as an xsd:dateTime in UTC, to the millisecond (truncated,
// as time.Format does).
func DateTime(t time.Time) rdf.Term {
	return rdf.Literal(string(appendDateTime(make([]byte, 0, len(dateTimeLayout)), t)), rdf.XSDDateTime)
}

// appendDateTime appends t in dateTimeLayout, in UTC: the digits written
// directly for years 0 to 9999 (every post's date is one), time.Format's
// layout walk for the others.
func appendDateTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, dateTimeLayout)
	}
	hour, min, sec := t.Clock()
	ms := t.Nanosecond() / 1e6
	d2 := func(b []byte, n int) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }
	b = d2(b, year/100)
	b = d2(b, year%100)
	b = d2(append(b, '-'), int(month))
	b = d2(append(b, '-'), day)
	b = d2(append(b, 'T'), hour)
	b = d2(append(b, ':'), min)
	b = d2(append(b, ':'), sec)
	return append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10), 'Z')
}

// Integer is n as an xsd:integer.
func Integer(n int64) rdf.Term { return rdf.Literal(strconv.FormatInt(n, 10), rdf.XSDInteger) }
