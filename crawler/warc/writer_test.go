package warc

import (
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/warc/warctest"
)

var fetchTime = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)

func newTestWriter(t *testing.T, dir string, maxSize int64) *Writer {
	t.Helper()
	w, err := NewWriter(Config{Dir: dir, CrawlID: "crawl1", MaxSize: maxSize, Info: Info{
		Software: "mneme-test/1", Operator: "Test Operator <ops@example.org>", Hostname: "crawler.test",
		RobotsPolicy: "obey", UserAgent: "mneme-test (+http://example.org/bot)",
	}})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func request(url string) *bytes.Reader {
	return bytes.NewReader([]byte("GET " + url + " HTTP/1.1\r\nHost: example\r\nUser-Agent: mneme-test\r\n\r\n"))
}

func response(status, contentType, body string) *bytes.Reader {
	h := "HTTP/1.1 " + status + "\r\n"
	if contentType != "" {
		h += "Content-Type: " + contentType + "\r\n"
	}
	return bytes.NewReader([]byte(fmt.Sprintf("%sContent-Length: %d\r\n\r\n%s", h, len(body), body)))
}

func sha1b32(s string) string {
	sum := sha1.Sum([]byte(s))
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

func mustWrite(t *testing.T, w *Writer, ex Exchange) Capture {
	t.Helper()
	c, err := w.WriteExchange(ex)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func warcFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestExchangeRoundTrip(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 0)
	body := "<html><a href=x>x</a></html>"
	req, resp := request("http://example.com/"), response("200 OK", "text/html; charset=utf-8", body)
	c := mustWrite(t, w, Exchange{URL: "http://example.com/", Date: fetchTime, IP: "127.0.0.1", Request: req, Response: resp})
	if c.PayloadDigest != sha1b32(body) {
		t.Errorf("payload digest %s, want %s", c.PayloadDigest, sha1b32(body))
	}
	ml, err := w.WriteMetadata(Metadata{URL: "http://example.com/", Date: fetchTime, ConcurrentTo: c.Response.RecordID,
		Via: "http://example.com/seed", HopPath: "L", FetchTime: 42 * time.Millisecond,
		Outlinks: []Outlink{{"http://example.com/x", "L", "a/@href"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := warcFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("files %v, want 1", files)
	}
	if ok, _ := regexp.MatchString(`^MNEME-crawl1-\d{14}-00000-crawler\.test\.warc\.gz$`, filepath.Base(files[0])); !ok {
		t.Errorf("file name %s", filepath.Base(files[0]))
	}
	recs, err := ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, r := range recs {
		types = append(types, r.Type())
	}
	if got := strings.Join(types, " "); got != "warcinfo response request metadata" {
		t.Fatalf("record types %q", got)
	}
	info, rs, rq, md := recs[0], recs[1], recs[2], recs[3]
	for _, want := range []string{"software: mneme-test/1\r\n", "isPartOf: crawl1\r\n", "robots: obey\r\n",
		"hostname: crawler.test\r\n", "http-header-user-agent: mneme-test (+http://example.org/bot)\r\n"} {
		if !bytes.Contains(info.Block, []byte(want)) {
			t.Errorf("warcinfo lacks %q:\n%s", want, info.Block)
		}
	}
	if info.Header.Get("WARC-Filename") != filepath.Base(files[0]) {
		t.Errorf("WARC-Filename %q", info.Header.Get("WARC-Filename"))
	}
	checks := []check{
		{rs.Version, "WARC/1.1"},
		{string(rs.Block), string(readAll(resp))},
		{string(rq.Block), string(readAll(req))},
		{rs.Header.Get("WARC-Date"), "2025-03-04T05:06:07Z"},
		{rs.Header.Get("WARC-IP-Address"), "127.0.0.1"},
		{rs.Header.Get("WARC-Payload-Digest"), sha1b32(body)},
		{rs.Header.Get("WARC-Block-Digest"), sha1b32(string(rs.Block))},
		{rs.Header.Get("WARC-Record-ID"), c.Response.RecordID},
		{rs.Header.Get("WARC-Concurrent-To"), c.Request.RecordID},
		{rq.Header.Get("WARC-Concurrent-To"), c.Response.RecordID},
		{rs.Header.Get("WARC-Warcinfo-ID"), info.Header.Get("WARC-Record-ID")},
		{rq.Header.Get("Content-Type"), "application/http; msgtype=request"},
		{md.Header.Get("WARC-Concurrent-To"), c.Response.RecordID},
		{string(md.Block), "via: http://example.com/seed\r\nhopsFromSeed: L\r\nfetchTimeMs: 42\r\noutlink: http://example.com/x L a/@href\r\n"},
	}
	expectAll(t, checks)
	// The writer's locations are the reader's.
	for _, pair := range []struct {
		loc Location
		rec *Record
	}{{c.Response, rs}, {c.Request, rq}, {ml, md}} {
		if pair.loc.File != filepath.Base(files[0]) || pair.loc.Offset != pair.rec.Offset || pair.loc.Length != pair.rec.Length {
			t.Errorf("location %+v, reader saw offset %d length %d", pair.loc, pair.rec.Offset, pair.rec.Length)
		}
	}
	warctest.Check(t, files...)
}

type check struct{ got, want string }

func expectAll(t *testing.T, checks []check) {
	t.Helper()
	for i, ck := range checks {
		if ck.got != ck.want {
			t.Errorf("check %d: got %q, want %q", i, ck.got, ck.want)
		}
	}
}

func readAll(r *bytes.Reader) []byte {
	b := make([]byte, r.Size())
	r.ReadAt(b, 0)
	return b
}

func TestChunkedAndTruncatedPayloads(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 0)
	chunked := bytes.NewReader([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"))
	c := mustWrite(t, w, Exchange{URL: "http://example.com/chunked", Response: chunked, Request: request("http://example.com/chunked")})
	if c.PayloadDigest != sha1b32("hello world") {
		t.Errorf("chunked payload digest %s, want digest of the dechunked body %s", c.PayloadDigest, sha1b32("hello world"))
	}
	cut := bytes.NewReader([]byte("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part"))
	c = mustWrite(t, w, Exchange{URL: "http://example.com/big", Response: cut, Truncated: TruncatedLength})
	if c.PayloadDigest != "" || c.Request != (Location{}) {
		t.Errorf("truncated capture %+v: want no payload digest and no request", c)
	}
	if _, err := w.WriteExchange(Exchange{URL: "http://example.com/", Response: cut, Truncated: "size"}); err == nil {
		t.Error("unknown truncation reason accepted")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadFile(warcFiles(t, dir)[0])
	if err != nil {
		t.Fatal(err)
	}
	last := recs[len(recs)-1]
	if last.Header.Get("WARC-Truncated") != "length" || last.Header.Get("WARC-Payload-Digest") != "" {
		t.Errorf("truncated record header:\n%v", last.Header)
	}
	warctest.Check(t, warcFiles(t, dir)...)
}

func TestRevisitProfiles(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 0)
	body := "same bytes at two URLs"
	orig := mustWrite(t, w, Exchange{URL: "http://a.example/1", Date: fetchTime, Response: response("200 OK", "text/plain", body), Request: request("http://a.example/1")})
	dup := response("200 OK", "text/plain", body)
	rv, err := w.WriteRevisit(Revisit{Profile: IdenticalPayloadDigest, URL: "http://b.example/2", Date: fetchTime.Add(time.Hour),
		Response: dup, Request: request("http://b.example/2"),
		RefersToURI: "http://a.example/1", RefersToDate: fetchTime, RefersToID: orig.Response.RecordID})
	if err != nil {
		t.Fatal(err)
	}
	if rv.PayloadDigest != orig.PayloadDigest {
		t.Errorf("revisit digest %s, original %s", rv.PayloadDigest, orig.PayloadDigest)
	}
	notMod := bytes.NewReader([]byte("HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"))
	if _, err := w.WriteRevisit(Revisit{Profile: ServerNotModified, URL: "http://a.example/1", Date: fetchTime.Add(2 * time.Hour),
		Response: notMod, RefersToURI: "http://a.example/1", RefersToDate: fetchTime}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteRevisit(Revisit{Profile: ServerNotModified, URL: "http://a.example/1", Response: notMod}); err == nil {
		t.Error("revisit without the archived capture's URI and date accepted")
	}
	if _, err := w.WriteRevisit(Revisit{Profile: IdenticalPayloadDigest, URL: "http://b.example/3", Response: bytes.NewReader([]byte("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort")),
		RefersToURI: "http://a.example/1", RefersToDate: fetchTime}); err == nil {
		t.Error("identical-payload-digest revisit of a cut-short payload accepted")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadFile(warcFiles(t, dir)[0])
	if err != nil {
		t.Fatal(err)
	}
	var revs []*Record
	for _, r := range recs {
		if r.Type() == "revisit" {
			revs = append(revs, r)
		}
	}
	if len(revs) != 2 {
		t.Fatalf("%d revisit records, want 2", len(revs))
	}
	d, n := revs[0], revs[1]
	checks := []check{
		{d.Header.Get("WARC-Profile"), "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"},
		{d.Header.Get("WARC-Refers-To-Target-URI"), "http://a.example/1"},
		{d.Header.Get("WARC-Refers-To-Date"), "2025-03-04T05:06:07Z"},
		{d.Header.Get("WARC-Refers-To"), orig.Response.RecordID},
		{d.Header.Get("WARC-Payload-Digest"), sha1b32(body)},
		{string(d.Block), "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 22\r\n\r\n"},
		{n.Header.Get("WARC-Profile"), "http://netpreserve.org/warc/1.1/revisit/server-not-modified"},
		{n.Header.Get("WARC-Refers-To-Date"), "2025-03-04T05:06:07Z"},
		{string(n.Block), "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"},
	}
	expectAll(t, checks)
	warctest.Check(t, warcFiles(t, dir)...)
}

func TestRotationKeepsPairsTogether(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 2000)
	body := strings.Repeat("payload that compresses only a little 0123456789 ", 20)
	var caps []Capture
	for i := range 12 {
		url := fmt.Sprintf("http://example.com/page/%d", i)
		caps = append(caps, mustWrite(t, w, Exchange{URL: url, Response: response("200 OK", "text/plain", body+url), Request: request(url)}))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := warcFiles(t, dir)
	if len(files) < 3 {
		t.Fatalf("%d files, want rotation into at least 3", len(files))
	}
	for i, f := range files {
		if want := fmt.Sprintf("-%05d-", i); !strings.Contains(filepath.Base(f), want) {
			t.Errorf("file %d is %s, want serial %s", i, f, want)
		}
		if _, err := os.Stat(IndexPath(f)); err != nil {
			t.Errorf("no CDXJ for %s: %v", f, err)
		}
	}
	for _, c := range caps {
		if c.Request.File != c.Response.File || c.Request.Offset != c.Response.Offset+c.Response.Length {
			t.Errorf("pair split or apart: %+v", c)
		}
	}
	warctest.Check(t, files...)

	// A writer in the same directory continues the serials.
	w2 := newTestWriter(t, dir, 0)
	c := mustWrite(t, w2, Exchange{URL: "http://example.com/", Response: response("200 OK", "", "x")})
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("-%05d-", len(files)); !strings.Contains(c.Response.File, want) {
		t.Errorf("resumed writer wrote %s, want serial %s", c.Response.File, want)
	}
}

func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 20000)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 15 {
				url := fmt.Sprintf("http://host%d.example/%d", g, i)
				c, err := w.WriteExchange(Exchange{URL: url, Response: response("200 OK", "text/plain", url), Request: request(url)})
				if err == nil && (c.Request.File != c.Response.File || c.Request.Offset != c.Response.Offset+c.Response.Length) {
					err = fmt.Errorf("pair of %s apart: %+v", url, c)
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteExchange(Exchange{URL: "http://x.example/", Response: response("200 OK", "", "")}); err == nil {
		t.Error("write after Close accepted")
	}
	n := 0
	for _, f := range warcFiles(t, dir) {
		recs, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += len(recs) - 1 // all but the warcinfo
		// Records compressed before a rotation name the new file's warcinfo.
		for _, r := range recs[1:] {
			if got, want := r.Header.Get("WARC-Warcinfo-ID"), recs[0].Header.Get("WARC-Record-ID"); got != want {
				t.Errorf("%s: record %s names warcinfo %s, want %s", filepath.Base(f), r.Header.Get("WARC-Record-ID"), got, want)
			}
		}
	}
	if n != 6*15*2 {
		t.Errorf("%d records, want %d", n, 6*15*2)
	}
	warctest.Check(t, warcFiles(t, dir)...)
}

// TestGivenPayloadDigest checks that a digest from the caller replaces the
// writer's own hashing (it is written as given, even where it differs from
// the bytes), that a malformed one is refused and that a truncated capture,
// "disconnect" included, gets none.
func TestGivenPayloadDigest(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 0)
	body := "hello world"
	c := mustWrite(t, w, Exchange{URL: "http://example.com/a", Response: response("200 OK", "text/plain", body), PayloadDigest: sha1b32(body)})
	if c.PayloadDigest != sha1b32(body) {
		t.Errorf("payload digest %s, want %s", c.PayloadDigest, sha1b32(body))
	}
	trusted := mustWrite(t, w, Exchange{URL: "http://example.com/b", Response: response("200 OK", "text/plain", body), PayloadDigest: sha1b32("other")})
	cut := bytes.NewReader([]byte("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part"))
	dis := mustWrite(t, w, Exchange{URL: "http://example.com/c", Response: cut, Truncated: TruncatedDisconnect, PayloadDigest: sha1b32("only part")})
	for _, bad := range []string{"sha1:short", "md5:" + sha1b32(body)[5:], sha1b32(body)[5:], "sha1:" + strings.Repeat("1", 32)} {
		if _, err := w.WriteExchange(Exchange{URL: "http://example.com/d", Response: response("200 OK", "", body), PayloadDigest: bad}); err == nil {
			t.Errorf("malformed payload digest %q accepted", bad)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadFile(warcFiles(t, dir)[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("%d records, want warcinfo and 3 responses", len(recs))
	}
	expectAll(t, []check{
		{recs[1].Header.Get("WARC-Payload-Digest"), sha1b32(body)},
		{recs[2].Header.Get("WARC-Payload-Digest"), sha1b32("other")},
		{trusted.PayloadDigest, sha1b32("other")},
		{recs[3].Header.Get("WARC-Truncated"), "disconnect"},
		{recs[3].Header.Get("WARC-Payload-Digest"), ""},
		{dis.PayloadDigest, ""},
	})
}

// TestDisconnectVerifies writes a capture cut by the server, as
// crawler/fetch reports it, and has the independent verifier check it.
func TestDisconnectVerifies(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 0)
	cut := bytes.NewReader([]byte("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part"))
	mustWrite(t, w, Exchange{URL: "http://example.com/cut", Response: cut, Request: request("http://example.com/cut"), Truncated: TruncatedDisconnect})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	warctest.Check(t, warcFiles(t, dir)...)
}

// TestLargeRecordStreamed writes a record above maxBuffered, which is
// compressed straight into the file rather than in memory, between two
// small ones, and reads all three back.
func TestLargeRecordStreamed(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 0)
	var big strings.Builder
	for i := 0; big.Len() <= maxBuffered; i++ {
		fmt.Fprintf(&big, "line %d of a large text body\n", i)
	}
	bodies := []string{"small before", big.String(), "small after"}
	var caps []Capture
	for i, body := range bodies {
		url := fmt.Sprintf("http://example.com/%d", i)
		caps = append(caps, mustWrite(t, w, Exchange{URL: url, Response: response("200 OK", "text/plain", body), Request: request(url)}))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadFile(warcFiles(t, dir)[0])
	if err != nil {
		t.Fatal(err)
	}
	for i, body := range bodies {
		rs := recs[1+2*i]
		if !bytes.HasSuffix(rs.Block, []byte("\r\n\r\n"+body)) || rs.Header.Get("WARC-Payload-Digest") != sha1b32(body) {
			t.Errorf("response %d: %d bytes, payload digest %s", i, len(rs.Block), rs.Header.Get("WARC-Payload-Digest"))
		}
		if caps[i].Response.Offset != rs.Offset || caps[i].Response.Length != rs.Length {
			t.Errorf("response %d: location %+v, reader saw offset %d length %d", i, caps[i].Response, rs.Offset, rs.Length)
		}
	}
	warctest.Check(t, warcFiles(t, dir)...)
}

func TestGzipLevel(t *testing.T) {
	for _, bad := range []int{-1, 10} {
		if _, err := NewWriter(Config{Dir: t.TempDir(), CrawlID: "c", GzipLevel: bad}); err == nil {
			t.Errorf("GzipLevel %d accepted", bad)
		}
	}
	body := strings.Repeat("compressible text ", 500)
	sizes := map[int]int64{}
	for _, level := range []int{1, 9} {
		dir := t.TempDir()
		w, err := NewWriter(Config{Dir: dir, CrawlID: "c", GzipLevel: level})
		if err != nil {
			t.Fatal(err)
		}
		c := mustWrite(t, w, Exchange{URL: "http://example.com/", Response: response("200 OK", "text/plain", body)})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		recs, err := ReadFile(warcFiles(t, dir)[0])
		if err != nil || !bytes.HasSuffix(recs[1].Block, []byte(body)) {
			t.Fatalf("level %d: %v", level, err)
		}
		sizes[level] = c.Response.Length
	}
	if sizes[9] >= sizes[1] {
		t.Errorf("level 9 member %d bytes, level 1 %d: the level is not applied", sizes[9], sizes[1])
	}
}

// With GroupSync, writes leave their groups to Sync, which writes them out
// and makes all of them durable at once, at the locations the writes
// reported.
func TestGroupSync(t *testing.T) {
	dir := t.TempDir()
	w, err := NewWriter(Config{Dir: dir, CrawlID: "crawl1", GroupSync: true, Info: Info{Hostname: "crawler.test"}})
	if err != nil {
		t.Fatal(err)
	}
	var caps []Capture
	for i := range 3 {
		url := fmt.Sprintf("http://example.com/%d", i)
		caps = append(caps, mustWrite(t, w, Exchange{URL: url, Date: fetchTime, Request: request(url), Response: response("200 OK", "text/plain", url)}))
	}
	w.mu.Lock()
	groups, durable := w.groups, w.durable
	open := filepath.Join(dir, w.name+openSuffix)
	w.mu.Unlock()
	if groups != 3 || durable != 0 {
		t.Fatalf("before Sync: %d groups, %d durable; want 3 and 0", groups, durable)
	}
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(open)
	if err != nil {
		t.Fatal(err)
	}
	last := caps[2].Request
	if end := last.Offset + last.Length; st.Size() != end {
		t.Errorf("file holds %d bytes after Sync, want the %d the writes reported", st.Size(), end)
	}
	w.mu.Lock()
	durable = w.durable
	w.mu.Unlock()
	if durable != 3 {
		t.Errorf("after Sync: %d groups durable, want 3", durable)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := warcFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("%d WARC files, want 1", len(files))
	}
	warctest.Check(t, files...)
}

// blockType returns the type of the first deflate block of the gzip member
// at loc: 0 stored, 1 fixed Huffman codes, 2 dynamic ones.
func blockType(t *testing.T, dir string, loc Location) byte {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, loc.File))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 11) // the 10-byte gzip header, then deflate
	if _, err := f.ReadAt(head, loc.Offset); err != nil {
		t.Fatal(err)
	}
	if head[0] != 0x1f || head[1] != 0x8b || head[3] != 0 {
		t.Fatalf("member at %d does not begin with a plain gzip header: % x", loc.Offset, head)
	}
	return head[10] >> 1 & 3
}

// Records up to StoreSmall bytes are stored in their member, larger ones
// compressed; a negative StoreSmall compresses all. Both read back whole.
func TestStoreSmall(t *testing.T) {
	body := strings.Repeat("a page long enough to be compressed. ", 100)
	for _, tc := range []struct {
		storeSmall  int
		requestType byte
	}{{0, 0}, {-1, 2}} {
		dir := t.TempDir()
		w, err := NewWriter(Config{Dir: dir, CrawlID: "c", StoreSmall: tc.storeSmall})
		if err != nil {
			t.Fatal(err)
		}
		url := "http://example.com/page"
		c := mustWrite(t, w, Exchange{URL: url, Date: fetchTime, Request: request(url), Response: response("200 OK", "text/html", body)})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if c.Request.Length >= DefaultStoreSmall+40 {
			t.Fatalf("request member of %d bytes: not a small record", c.Request.Length)
		}
		if got := blockType(t, dir, c.Request); got != tc.requestType {
			t.Errorf("StoreSmall %d: request's first block has type %d, want %d", tc.storeSmall, got, tc.requestType)
		}
		if got := blockType(t, dir, c.Response); got == 0 {
			t.Errorf("StoreSmall %d: the %d-byte response is stored", tc.storeSmall, len(body))
		}
		recs, err := ReadFile(warcFiles(t, dir)[0])
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 3 || !bytes.HasSuffix(recs[1].Block, []byte(body)) || !bytes.HasPrefix(recs[2].Block, []byte("GET "+url)) {
			t.Errorf("StoreSmall %d: records read back: %d", tc.storeSmall, len(recs))
		}
		warctest.Check(t, warcFiles(t, dir)...)
	}
}

// failingContent reads as its bytes until limit bytes were read in all,
// then fails: a spill file lost between the digest and the writing.
type failingContent struct {
	b     []byte
	limit int
	read  int
}

func (c *failingContent) Size() int64 { return int64(len(c.b)) }

func (c *failingContent) ReadAt(p []byte, off int64) (int, error) {
	if c.read >= c.limit {
		return 0, errors.New("spill file gone")
	}
	n := copy(p, c.b[off:])
	c.read += n
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// With GroupSync, a large record that fails halfway through is cut back
// without losing the groups written before it, which wait in the buffer
// until Sync; later writes go on.
func TestGroupSyncFailedRecord(t *testing.T) {
	dir := t.TempDir()
	w, err := NewWriter(Config{Dir: dir, CrawlID: "c", GroupSync: true})
	if err != nil {
		t.Fatal(err)
	}
	write := func(i int) Capture {
		url := fmt.Sprintf("http://example.com/%d", i)
		return mustWrite(t, w, Exchange{URL: url, Date: fetchTime, Request: request(url), Response: response("200 OK", "text/plain", url)})
	}
	write(0)
	write(1)
	var big strings.Builder
	for i := 0; big.Len() <= maxBuffered; i++ {
		fmt.Fprintf(&big, "line %d of a large text body\n", i)
	}
	raw, _ := io.ReadAll(response("200 OK", "text/plain", big.String()))
	bad := &failingContent{b: raw, limit: len(raw) + len(raw)/2} // the digest reads it whole, the writing half
	if _, err := w.WriteExchange(Exchange{URL: "http://example.com/big", Response: bad, PayloadDigest: sha1b32(big.String())}); err == nil || !strings.Contains(err.Error(), "spill file gone") {
		t.Fatalf("writing the failing record: %v", err)
	}
	last := write(2)
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadFile(warcFiles(t, dir)[0])
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range recs[1:] {
		if r.Type() == "response" {
			uris = append(uris, r.Header.Get("WARC-Target-URI"))
		}
	}
	if want := "http://example.com/0 http://example.com/1 http://example.com/2"; strings.Join(uris, " ") != want {
		t.Errorf("responses %v, want %s", uris, want)
	}
	if end := recs[len(recs)-1]; end.Offset != last.Request.Offset {
		t.Errorf("last record at %d, the write reported %d", end.Offset, last.Request.Offset)
	}
	warctest.Check(t, warcFiles(t, dir)...)
}
