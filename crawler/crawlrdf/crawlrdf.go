// Package crawlrdf describes a crawl in RDF, in the crawl's own named graph
// (docs/data-model.md): the crawl activity and its specification, one
// capture per fetch with where its WARC record lies, and the references
// found in it (a statement from the capture to each target; the anchor
// texts on the targets). It also repairs that description after a crash
// cut WARC files short.
package crawlrdf

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// CrawlIRI is the IRI of the crawl with the given id, which is also the
// name of its graph.
func CrawlIRI(id string) string { return "urn:mneme:crawl:" + id }

// SpecIRI is the IRI of the crawl's specification.
func SpecIRI(id string) string { return CrawlIRI(id) + ":spec" }

// AgentIRI names the software that ran a crawl, by version.
func AgentIRI(version string) string { return "urn:mneme:agent:mneme/" + version }

// Crawl describes a crawl activity.
type Crawl struct {
	ID        string
	Seeds     []string
	UserAgent string
	Scope     string // a readable summary of the scope rules
	MaxHops   int
	MaxPages  int64 // 0: no limit
	Version   string
	Started   time.Time
}

// Graph is the crawl's named graph.
func (c Crawl) Graph() rdf.Term { return rdf.IRI(CrawlIRI(c.ID)) }

// Quads describes the crawl and its specification.
func (c Crawl) Quads() []rdf.Quad {
	g, crawl, spec, agent := c.Graph(), rdf.IRI(CrawlIRI(c.ID)), rdf.IRI(SpecIRI(c.ID)), rdf.IRI(AgentIRI(c.Version))
	q := []rdf.Quad{
		{S: crawl, P: iri(rdf.RDFType), O: iri(ontology.Crawl), G: g},
		{S: crawl, P: iri(rdf.RDFType), O: iri(ontology.ProvActivity), G: g},
		{S: crawl, P: iri(ontology.Specification), O: spec, G: g},
		{S: crawl, P: iri(ontology.ProvStartedAtTime), O: dateTime(c.Started), G: g},
		{S: crawl, P: iri(ontology.ProvWasAssociatedWith), O: agent, G: g},
		{S: crawl, P: iri(ontology.UserAgent), O: rdf.String(c.UserAgent), G: g},
		{S: agent, P: iri(rdf.RDFType), O: iri(ontology.ProvSoftwareAgent), G: g},
		{S: spec, P: iri(rdf.RDFType), O: iri(ontology.CrawlSpec), G: g},
		{S: spec, P: iri(rdf.RDFType), O: iri(ontology.ProvPlan), G: g},
		{S: spec, P: iri(ontology.Scope), O: rdf.String(c.Scope), G: g},
		{S: spec, P: iri(ontology.MaxHops), O: integer(int64(c.MaxHops)), G: g},
	}
	if c.MaxPages > 0 {
		q = append(q, rdf.Quad{S: spec, P: iri(ontology.MaxCaptures), O: integer(c.MaxPages), G: g})
	}
	for _, s := range c.Seeds {
		q = append(q, rdf.Quad{S: spec, P: iri(ontology.Seed), O: rdf.IRI(s), G: g})
	}
	return q
}

// Ended is the quad that closes the crawl.
func Ended(id string, t time.Time) rdf.Quad {
	return rdf.Quad{S: rdf.IRI(CrawlIRI(id)), P: iri(ontology.ProvEndedAtTime), O: dateTime(t), G: rdf.IRI(CrawlIRI(id))}
}

// Capture is one fetch.
type Capture struct {
	IRI      string // the WARC-Record-ID of its response or revisit record, else a fresh urn:uuid
	URL      string
	Time     time.Time
	Status   int    // HTTP status; negative Heritrix codes are written as FetchError
	Error    string // why the fetch failed, when it did
	MimeType string
	Length   int64 // payload bytes; negative when unknown
	Digest   string
	WARCFile string // empty when no record was written
	Offset   int64
	RecordID string
	HopPath  string
	Via      string // IRI of the capture the URL was found in, if known
	// Duplicate is the IRI of the earlier capture holding the same payload
	// (the capture was written as a revisit record).
	Duplicate string
	// Change is the mneme:changeStatus against the URL's previous capture
	// (an ontology Status* IRI), in incremental crawls; empty: StatusNew
	// for a response, StatusUnknown without one. Previous is the IRI of
	// that capture (prov:wasRevisionOf).
	Change   string
	Previous string
	// Schedule is what the revisit scheduler decided after the capture,
	// in incremental crawls; nil otherwise.
	Schedule *Schedule
	Links    []Link
}

// Schedule is the revisit scheduler's figures for a URL as they stood
// after one of its captures, the crawl.log's "wt:…,3vis,1ver,ov:…". They
// are statements about the capture, written with it: each capture keeps
// the figures of its moment, so nothing is ever updated in place.
type Schedule struct {
	Visits   int64         // successful visits of the URL, this one included
	Versions int64         // distinct versions found, this one included
	Wait     time.Duration // until the next visit
	Overdue  time.Duration // how late this visit was against its due time
	Next     time.Time     // when the next visit is due
}

// Link is a hyperlink found in a capture.
type Link struct {
	Target string
	Text   string
	Hop    byte // Heritrix hop code: L, E, R, P, X, I
}

// HopKinds maps a Heritrix hop code to its mneme:HopKind.
var HopKinds = map[byte]string{
	'L': ontology.HopLink, 'E': ontology.HopEmbed, 'R': ontology.HopRedirect,
	'P': ontology.HopPrerequisite, 'X': ontology.HopSpeculative, 'I': ontology.HopInferred,
}

// Quads describes the capture and its links in the crawl's graph.
func (c *Capture) Quads(crawlID string, dst []rdf.Quad) []rdf.Quad {
	// Some twenty statements about the capture, and up to two a link
	// (most links are plain): grown once rather than doubled on the way.
	dst = slices.Grow(dst, 24+2*len(c.Links))
	g, s := rdf.IRI(CrawlIRI(crawlID)), rdf.IRI(c.IRI)
	add := func(p string, o rdf.Term) { dst = append(dst, rdf.Quad{S: s, P: iri(p), O: o, G: g}) }
	url := rdf.IRI(c.URL)
	add(rdf.RDFType, iri(ontology.Capture))
	add(ontology.URL, url)
	dst = append(dst, rdf.Quad{S: url, P: iri(rdf.RDFType), O: iri(ontology.WebResource), G: g})
	add(ontology.ProvWasGeneratedBy, g)
	add(ontology.ProvGeneratedAtTime, dateTime(c.Time))
	switch {
	case c.Change != "":
		add(ontology.ChangeStatus, iri(c.Change))
	case c.Status > 0:
		add(ontology.ChangeStatus, iri(ontology.StatusNew))
	default:
		add(ontology.ChangeStatus, iri(ontology.StatusUnknown))
	}
	if c.Status > 0 {
		add(ontology.HTTPStatus, integer(int64(c.Status)))
	}
	if c.Previous != "" {
		add(ontology.ProvWasRevisionOf, rdf.IRI(c.Previous))
	}
	if c.Error != "" {
		add(ontology.FetchError, rdf.String(c.Error))
	}
	if c.MimeType != "" {
		add(ontology.MIMEType, rdf.String(c.MimeType))
	}
	if c.Length >= 0 {
		add(ontology.ContentLength, integer(c.Length))
	}
	if c.Digest != "" {
		add(ontology.PayloadDigest, rdf.String(c.Digest))
	}
	if c.WARCFile != "" {
		add(ontology.WARCFile, rdf.String(c.WARCFile))
		add(ontology.WARCOffset, integer(c.Offset))
		add(ontology.WARCRecordID, rdf.IRI(c.RecordID))
	}
	add(ontology.HopPath, rdf.String(c.HopPath))
	if c.HopPath != "" {
		if k, ok := HopKinds[c.HopPath[len(c.HopPath)-1]]; ok {
			add(ontology.HopType, iri(k))
		}
	}
	if c.Via != "" {
		dst = append(dst, ViaQuad(crawlID, c.IRI, c.Via))
	}
	if c.Duplicate != "" {
		add(ontology.DuplicateOf, rdf.IRI(c.Duplicate))
	}
	if sc := c.Schedule; sc != nil {
		add(ontology.VisitCount, integer(sc.Visits))
		add(ontology.VersionCount, integer(sc.Versions))
		add(ontology.RevisitWait, seconds(sc.Wait))
		add(ontology.Overdue, seconds(sc.Overdue))
		add(ontology.NextVisit, dateTime(sc.Next))
	}
	for i, l := range c.Links {
		target := rdf.IRI(l.Target)
		if p, ok := plainLinks[l.Hop]; ok {
			add(p, target)
			if l.Text != "" {
				dst = append(dst, rdf.Quad{S: target, P: iri(ontology.LinkText), O: rdf.String(l.Text), G: g})
			}
			continue
		}
		li := rdf.IRI(LinkIRI(c.IRI, i))
		link := func(p string, o rdf.Term) { dst = append(dst, rdf.Quad{S: li, P: iri(p), O: o, G: g}) }
		link(rdf.RDFType, iri(ontology.Link))
		link(ontology.LinkSource, s)
		link(ontology.LinkTarget, target)
		if l.Text != "" {
			link(ontology.AnchorText, rdf.String(l.Text))
		}
		if k, ok := HopKinds[l.Hop]; ok {
			link(ontology.HopType, iri(k))
		}
	}
	return dst
}

// plainLinks are the hop kinds of nearly every reference, each written as
// one statement from the capture to the target (its anchor text going to
// the target, as one of the texts the crawl's pages link to it with):
// a page holds dozens of them, and a node of five statements each made
// links most of a crawl's graph. The rare other kinds (redirects,
// speculative URLs…) keep a mneme:Link node with its hop type.
var plainLinks = map[byte]string{'L': ontology.LinksTo, 'E': ontology.Embeds}

// ViaQuad says that the capture's URL was found in the capture via.
func ViaQuad(crawlID, capture, via string) rdf.Quad {
	return rdf.Quad{S: rdf.IRI(capture), P: iri(ontology.Via), O: rdf.IRI(via), G: rdf.IRI(CrawlIRI(crawlID))}
}

// LinkIRI names the i-th link found in a capture.
func LinkIRI(capture string, i int) string { return capture + "#link-" + strconv.Itoa(i+1) }

func iri(s string) rdf.Term { return rdf.IRI(s) }

func integer(n int64) rdf.Term { return rdf.Literal(strconv.FormatInt(n, 10), rdf.XSDInteger) }

// seconds is d as an xsd:decimal of seconds, to the millisecond as the
// crawl.log has it.
func seconds(d time.Duration) rdf.Term {
	ms := d.Milliseconds()
	sign := ""
	if ms < 0 {
		sign, ms = "-", -ms
	}
	return rdf.Literal(fmt.Sprintf("%s%d.%03d", sign, ms/1000, ms%1000), rdf.XSDDecimal)
}

func dateTime(t time.Time) rdf.Term {
	return rdf.Literal(t.UTC().Format("2006-01-02T15:04:05.000Z07:00"), rdf.XSDDateTime)
}
