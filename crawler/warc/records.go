package warc

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/nlnwa/gowarc"
)

// Truncation reasons for Exchange.Truncated (values of WARC-Truncated).
const (
	TruncatedLength     = "length"     // the body exceeded the fetcher's size limit
	TruncatedTime       = "time"       // the fetch hit its time limit
	TruncatedDisconnect = "disconnect" // the server closed the connection mid-body
)

// Profile selects the kind of revisit record.
type Profile int

const (
	// IdenticalPayloadDigest: the payload equals one already archived (any URL);
	// the record keeps only the new response's HTTP header.
	IdenticalPayloadDigest Profile = iota + 1
	// ServerNotModified: a conditional request got 304; the record keeps the
	// 304 response and points at the capture it confirms.
	ServerNotModified
)

// uri returns the WARC 1.1 profile URI.
func (p Profile) uri() (string, error) {
	switch p {
	case IdenticalPayloadDigest:
		return gowarc.ProfileIdenticalPayloadDigestV1_1, nil
	case ServerNotModified:
		return gowarc.ProfileServerNotModifiedV1_1, nil
	}
	return "", fmt.Errorf("warc: unknown revisit profile %d", int(p))
}

// Info describes the crawl in the warcinfo record that heads every file.
type Info struct {
	Software     string // e.g. "mneme/0.1"
	Operator     string // who runs the crawl, with contact
	Hostname     string // crawling host; defaults to os.Hostname
	RobotsPolicy string // e.g. "obey" or "ignore"
	UserAgent    string // User-Agent sent with requests
	Description  string
	Extra        Fields // further warcinfo fields, written after the standard ones
}

// Exchange is one HTTP fetch: the raw bytes as they went over the wire.
type Exchange struct {
	URL       string
	Date      time.Time // when the fetch began; the zero time means now
	IP        string    // address of the server that answered
	Request   Content   // request as sent; nil when none was recorded
	Response  Content   // status line, header and body as received
	Truncated string    // "", TruncatedLength, TruncatedTime or TruncatedDisconnect
	Metadata  *Metadata // written with the capture when set; URL, Date and ConcurrentTo are filled in
	// PayloadDigest, when set, is the WARC-Payload-Digest as the caller
	// already computed it while reading the body, which saves hashing the
	// payload again: "sha1:" and base32 of the entity body with any chunked
	// transfer coding removed and content coding kept, exactly what
	// PayloadDigest computes (crawler/fetch's Result.Digest is that). It is
	// trusted as given, and ignored for a truncated exchange, which gets none.
	PayloadDigest string
}

// Revisit is a fetch whose payload is not stored again.
type Revisit struct {
	Profile Profile
	URL     string
	Date    time.Time
	IP      string
	Request Content // request as sent; nil when none was recorded
	// Response as received. Only its HTTP header is kept: for
	// IdenticalPayloadDigest its payload digest must equal the archived
	// one; for ServerNotModified it is a 304 (which has no body) or the
	// head of a response whose validators said "not modified" and whose
	// body was not downloaded.
	Response     Content
	RefersToURI  string    // target URI of the archived capture
	RefersToDate time.Time // WARC-Date of the archived capture
	RefersToID   string    // its WARC-Record-ID, when known
	Metadata     *Metadata // written with the capture when set, as for Exchange
	// PayloadDigest of the response, when the caller has it, as for Exchange
	// (for IdenticalPayloadDigest it must be whole and equal the archived one).
	PayloadDigest string
}

// Outlink is a link found in a fetched document.
type Outlink struct {
	URL     string
	Hop     string // Heritrix hop type: L link, E embed, R redirect, X speculative ...
	Context string // where it was found, e.g. "a/@href"
}

// Metadata describes a capture, Heritrix style: how it was reached and what it links to.
type Metadata struct {
	URL          string
	Date         time.Time
	ConcurrentTo string // WARC-Record-ID of the response or revisit described
	Via          string // URL the capture was discovered from
	HopPath      string // hops from the seed, e.g. "LLE"
	FetchTime    time.Duration
	Outlinks     []Outlink
	Extra        Fields
}

// record is a record ready to be written: its header minus the per-file
// WARC-Warcinfo-ID, and its block.
type record struct {
	id     string
	typ    string
	header Fields
	block  Content
}

func newRecordID() string { return "<" + uuid.New().URN() + ">" }

func warcDate(t time.Time) string {
	if t.IsZero() {
		t = time.Now()
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}

// newRecord assembles a record; extra fields follow the standard ones and the
// digest and length fields come last.
func newRecord(typ, id, date, contentType string, block Content, payloadDigest string, extra Fields) (record, error) {
	bd, err := BlockDigest(block)
	if err != nil {
		return record{}, err
	}
	return newDigestedRecord(typ, id, date, contentType, block, bd, payloadDigest, extra), nil
}

// newDigestedRecord is newRecord for a block whose digest bd is known.
func newDigestedRecord(typ, id, date, contentType string, block Content, bd, payloadDigest string, extra Fields) record {
	// room for the references capture adds after the first three fields
	h := make(Fields, 3, len(extra)+9)
	h[0], h[1], h[2] = Field{"WARC-Type", typ}, Field{"WARC-Record-ID", id}, Field{"WARC-Date", date}
	for _, f := range extra {
		h.add(f.Name, clean(f.Value))
	}
	h.add("WARC-Block-Digest", bd)
	h.add("WARC-Payload-Digest", payloadDigest)
	h.add("Content-Type", contentType)
	h.addInt("Content-Length", block.Size())
	return record{id: id, typ: typ, header: h, block: block}
}

const (
	ctHTTPRequest  = "application/http; msgtype=request"
	ctHTTPResponse = "application/http; msgtype=response"
	ctWarcFields   = "application/warc-fields"
)

// requestRecord builds the request half of a pair, pointing at its response.
func requestRecord(url, date, responseID string, req Content) (record, error) {
	return newRecord("request", newRecordID(), date, ctHTTPRequest, req, "",
		Fields{{"WARC-Target-URI", url}, {"WARC-Concurrent-To", responseID}})
}

// capture returns the records of one capture in the order Heritrix writes
// them: the response (or revisit), its request, its metadata. The head names
// every other record with WARC-Concurrent-To and each of them names the head,
// so Repair can tell a capture cut short by a crash.
func capture(head record, url, date string, req Content, meta *Metadata) ([]record, error) {
	recs := []record{head}
	var refs Fields
	if req != nil {
		r, err := requestRecord(url, date, head.id, req)
		if err != nil {
			return nil, err
		}
		recs = append(recs, r)
		refs = append(refs, Field{"WARC-Concurrent-To", r.id})
	}
	if meta != nil {
		m := *meta
		m.ConcurrentTo = head.id
		if m.URL == "" {
			m.URL = url
		}
		if m.Date.IsZero() {
			m.Date, _ = time.Parse(time.RFC3339, date)
		}
		r, err := m.record()
		if err != nil {
			return nil, err
		}
		recs = append(recs, r)
		refs = append(refs, Field{"WARC-Concurrent-To", r.id})
	}
	recs[0].header = slices.Insert(head.header, 3, refs...)
	return recs, nil
}

func (ex Exchange) records() ([]record, string, error) {
	if ex.Response == nil {
		return nil, "", fmt.Errorf("warc: exchange %s has no response", ex.URL)
	}
	switch ex.Truncated {
	case "", TruncatedLength, TruncatedTime, TruncatedDisconnect:
	default:
		return nil, "", fmt.Errorf("warc: exchange %s: unknown truncation reason %q", ex.URL, ex.Truncated)
	}
	date := warcDate(ex.Date)
	var pd string
	switch {
	case ex.Truncated != "":
	case ex.PayloadDigest != "":
		if err := checkSHA1(ex.PayloadDigest); err != nil {
			return nil, "", fmt.Errorf("warc: exchange %s: payload digest: %w", ex.URL, err)
		}
		pd = ex.PayloadDigest
	default:
		// an unreadable body (malformed chunking) still gets archived, without digest
		pd, _ = PayloadDigest(ex.Response)
	}
	resp, err := newRecord("response", newRecordID(), date, ctHTTPResponse, ex.Response, pd,
		Fields{{"WARC-Target-URI", ex.URL}, {"WARC-IP-Address", ex.IP}, {"WARC-Truncated", ex.Truncated}})
	if err != nil {
		return nil, "", err
	}
	recs, err := capture(resp, ex.URL, date, ex.Request, ex.Metadata)
	return recs, pd, err
}

func (rv Revisit) records() ([]record, string, error) {
	profile, err := rv.Profile.uri()
	if err != nil {
		return nil, "", err
	}
	if rv.Response == nil {
		return nil, "", fmt.Errorf("warc: revisit %s has no response", rv.URL)
	}
	if rv.RefersToURI == "" || rv.RefersToDate.IsZero() {
		return nil, "", fmt.Errorf("warc: revisit %s: the archived capture's URI and date are required", rv.URL)
	}
	var pd string
	if rv.Profile == IdenticalPayloadDigest {
		if pd = rv.PayloadDigest; pd != "" {
			err = checkSHA1(pd)
		} else {
			pd, err = PayloadDigest(rv.Response)
		}
		if err != nil {
			return nil, "", fmt.Errorf("warc: revisit %s: identical-payload-digest needs a whole payload: %w", rv.URL, err)
		}
	}
	n, err := httpHeaderLen(rv.Response)
	if err != nil {
		return nil, "", fmt.Errorf("warc: revisit %s: %w", rv.URL, err)
	}
	block := io.NewSectionReader(rv.Response, 0, n)
	date := warcDate(rv.Date)
	rec, err := newRecord("revisit", newRecordID(), date, ctHTTPResponse, block, pd, Fields{
		{"WARC-Target-URI", rv.URL}, {"WARC-IP-Address", rv.IP}, {"WARC-Profile", profile},
		{"WARC-Refers-To", rv.RefersToID}, {"WARC-Refers-To-Target-URI", rv.RefersToURI},
		{"WARC-Refers-To-Date", warcDate(rv.RefersToDate)},
	})
	if err != nil {
		return nil, "", err
	}
	recs, err := capture(rec, rv.URL, date, rv.Request, rv.Metadata)
	return recs, pd, err
}

func (m Metadata) record() (record, error) {
	// The block is written straight into one buffer of its final size
	// (cleaning only shortens values): a page's outlinks are most of it,
	// and a field list with a string per outlink, or a growing buffer, made
	// this a noticeable share of a crawl's CPU time.
	body := make([]byte, 0, m.blockSize())
	field := func(name, v string) {
		if v != "" {
			body = appendClean(append(append(body, name...), ": "...), v)
			body = append(body, "\r\n"...)
		}
	}
	field("via", m.Via)
	field("hopsFromSeed", m.HopPath)
	if m.FetchTime > 0 {
		body = strconv.AppendInt(append(body, "fetchTimeMs: "...), m.FetchTime.Milliseconds(), 10)
		body = append(body, "\r\n"...)
	}
	for _, o := range m.Outlinks {
		if o.URL == "" && o.Hop == "" && o.Context == "" {
			continue
		}
		body = appendClean(append(body, "outlink: "...), o.URL)
		for _, part := range []string{o.Hop, o.Context} {
			if part != "" {
				body = appendClean(append(body, ' '), part)
			}
		}
		body = append(body, "\r\n"...)
	}
	for _, f := range m.Extra {
		field(f.Name, f.Value)
	}
	return newRecord("metadata", newRecordID(), warcDate(m.Date), ctWarcFields,
		memBlock(body), "",
		Fields{{"WARC-Target-URI", m.URL}, {"WARC-Concurrent-To", m.ConcurrentTo}})
}

// blockSize bounds the length of the metadata block record writes.
func (m Metadata) blockSize() int {
	n := len("via: \r\nhopsFromSeed: \r\nfetchTimeMs: \r\n") + len(m.Via) + len(m.HopPath) + 20
	for _, o := range m.Outlinks {
		n += len("outlink:   \r\n") + len(o.URL) + len(o.Hop) + len(o.Context)
	}
	return n + m.Extra.size()
}

// warcinfoRecord describes the crawl at the head of the file called name.
func warcinfoRecord(name, crawlID string, info Info) (record, error) {
	var body Fields
	body.add("software", clean(info.Software))
	body.add("format", "WARC File Format 1.1")
	body.add("conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/")
	body.add("isPartOf", clean(crawlID))
	body.add("hostname", clean(info.Hostname))
	body.add("operator", clean(info.Operator))
	body.add("robots", clean(info.RobotsPolicy))
	body.add("http-header-user-agent", clean(info.UserAgent))
	body.add("description", clean(info.Description))
	for _, f := range info.Extra {
		body.add(f.Name, clean(f.Value))
	}
	return newRecord("warcinfo", newRecordID(), warcDate(time.Time{}), ctWarcFields,
		memBlock(body.bytes()), "", Fields{{"WARC-Filename", name}})
}

// appendHeader appends the full record header, blank line included, for a
// file whose warcinfo is infoID.
func (r record) appendHeader(dst []byte, infoID string) []byte {
	dst = r.header.appendTo(append(dst, "WARC/1.1\r\n"...))
	if infoID != "" && r.typ != "warcinfo" {
		dst = append(append(append(dst, "WARC-Warcinfo-ID: "...), infoID...), "\r\n"...)
	}
	return append(dst, "\r\n"...)
}
