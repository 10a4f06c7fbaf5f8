// Package aah is the application-aware helper of the crawler (Faheem and
// Senellart's AAH): a crawler.Analyzer that recognises the web application
// behind a site with the knowledge base of package kb, follows only the
// links its navigation actions name on each page level (with the page's
// embeds; its other links, to other sites included, are recorded, not
// followed), and describes the objects its extraction actions find
// (posts, comments, wiki pages) in RDF, derived from the page's capture.
// Pages of unknown applications get the standard link extractor; while a
// site's application is unknown, its pages are parsed for detection only
// when their literals say a detection pattern could fire on them
// (kb.Detector.Possible), which on most sites is never, and past a site's
// first few such pages only on ever fewer of them.
package aah

import (
	"container/list"
	"fmt"
	"io"
	"net/url"
	"slices"
	"sync"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// Options tune a Helper.
type Options struct {
	// Log receives a line when a site's application is first detected or
	// changes; default discarded.
	Log io.Writer
	// Observe, when set, is called with the analysis of every page of a
	// known application, from the worker that fetched it, before the
	// page's links are chosen and its objects described: the hook for
	// adapting the knowledge base to a site whose templates differ
	// (Result.Failures, or no Level). It may replace the result's Level,
	// Links, Objects and Failures (package kb/adapt analyzes the page
	// again with the patterns it learned for the site).
	Observe func(*Result)
	// MaxSites is how many sites the helper keeps in RAM (default
	// DefaultMaxSites); the others wait in a Pebble database in a
	// directory made under SpillDir (default os.TempDir()) and removed by
	// Close.
	MaxSites int
	SpillDir string
}

// Helper is the application-aware analyzer. Its knowledge of sites lasts
// as long as it does: one Helper per crawl, closed when the crawl ends. It
// is safe for concurrent use.
type Helper struct {
	det   *kb.Detector
	std   *extract.Standard
	canon *canon.Canonicalizer
	opts  Options

	mu    sync.Mutex
	sites *siteTable
	// mined holds the extraction mining learnt for each site (a
	// bounded LRU of site roots), which its next pages try first.
	mined     map[string]*list.Element
	minedLRU  *list.List
	maxLearnt int
}

// minedSite is an entry of Helper.mined.
type minedSite struct {
	root string
	x    *kb.Extraction
}

// probePages is how many pages of a site of no known application are
// mined for the records of a forum before the site is left to the
// literal prefilter.
const probePages = 3

// freeCandidates is how many pages of a site of no known application are
// detected in full when their literals say a pattern could fire; past
// them, only the pages whose count is a power of two are. A site that
// stays unknown though its pages keep carrying some fingerprint's literal
// (common with thousands of fingerprints loaded) thus costs a full
// detection on 8 + log2(n) of its n pages, not on every page.
const freeCandidates = 8

// Site is what the helper learnt of one site (scheme, host and port).
type Site struct {
	Root string // the site's root URL, e.g. "http://example.org/"
	// App is the application's short name (a KB type ID or a fingerprint
	// technology's slug), Name its display name; both "" when unknown.
	App, Name string
	// Type is the KB type, nil when the application is unknown or known
	// only by a fingerprint (its pages then get the standard extractor).
	Type *kb.Type
	// Pattern is the detection pattern or fingerprint that named it, and
	// DetectedAt the page it fired on.
	Pattern, DetectedAt string
	// Pages counts the pages analyzed, Leveled those whose level was
	// recognised, Objects the objects extracted.
	Pages, Leveled, Objects int
	// Probes counts the pages mined for a forum's records while the
	// site's application was unknown.
	Probes int
	// Candidates counts the pages whose literals could name an
	// application while the site's was unknown (see freeCandidates).
	Candidates int
}

// Result is the helper's analysis of one page of a known application.
type Result struct {
	URL     string
	Doc     *vdoc.Doc
	Type    *kb.Type
	Level   *kb.Level // nil when no level of Type matched
	Links   []kb.Link // links chosen by the navigation actions
	Objects []kb.Object
	// Failures are the actions that matched nothing where they should
	// have: the signal that the site's templates differ from the KB's.
	Failures []kb.Failure
	// More are links of other pages of the site that the Observe hook
	// found again (adaptation learnt a navigation action from pages whose
	// links the KB had missed): followed, not recorded as this page's.
	More []kb.Link
	// Fetch gets another page of the site through the crawl (archived
	// like any capture: see crawler.Page.Fetch) for the Observe hook to
	// learn from; nil when the crawler offers none.
	Fetch func(url string) (*vdoc.Doc, error)
}

// New returns a helper detecting applications with det.
func New(det *kb.Detector, opts Options) *Helper {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	cn := canon.New(canon.Options{})
	return &Helper{
		// Nothing reads the links' paragraphs.
		det: det, std: extract.New(extract.Options{Canonicalizer: cn, MaxParagraph: -1}), canon: cn, opts: opts,
		sites: newSiteTable(det.KB(), opts.MaxSites, opts.SpillDir, opts.Log),
		mined: map[string]*list.Element{}, minedLRU: list.New(), maxLearnt: 1000,
	}
}

// Close removes the sites the helper spilled to disk.
func (h *Helper) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sites.close()
}

// Analyze implements crawler.Analyzer.
func (h *Helper) Analyze(p crawler.Page) (crawler.Analysis, error) {
	found, err := h.std.Extract(extract.Document{URL: p.URL, MediaType: p.MediaType, Text: p.Body})
	an := crawler.Analysis{Links: found, Follow: found}
	if err != nil || !extract.IsHTML(p.MediaType) {
		return an, err
	}
	root := siteRoot(p.URL)
	known, err := h.known(root)
	if err != nil {
		return an, err
	}
	probe := false
	if !known {
		// Most pages of a site of no known application cannot name one:
		// their literals tell, without parsing them. The site's first
		// few pages are probed for the records of a forum of an engine
		// no pattern names, though.
		head, err := vdoc.Head(p.URL.Href, p.Header, p.Body)
		if err != nil {
			return an, fmt.Errorf("aah: %s: %w", p.URL.Href, err)
		}
		if probe, err = h.probe(root); err != nil {
			return an, err
		}
		if !probe && !h.det.Possible(head) {
			return an, h.count(root, false, 0)
		}
		if !probe {
			detect, err := h.candidate(root)
			if err != nil {
				return an, err
			}
			if !detect {
				return an, h.count(root, false, 0)
			}
		}
	}
	doc, err := vdoc.New(p.URL.Href, p.Header, p.Body)
	if err != nil {
		return an, fmt.Errorf("aah: parsing %s: %w", p.URL.Href, err)
	}
	typ, level, err := h.classify(root, p.URL, doc)
	if err != nil {
		return an, err
	}
	if typ == nil && probe {
		if typ, level, err = h.mineSite(root, p.URL, doc); err != nil {
			return an, err
		}
	}
	if typ == nil {
		return an, h.count(root, false, 0)
	}
	res := &Result{URL: p.URL.Href, Doc: doc, Type: typ, Level: level}
	if p.Fetch != nil {
		res.Fetch = func(u string) (*vdoc.Doc, error) {
			got, err := p.Fetch(u)
			if err != nil {
				return nil, err
			}
			return vdoc.New(got.URL.Href, got.Header, got.Body)
		}
	}
	if level != nil {
		var navFails []kb.Failure
		res.Links, navFails = typ.Navigate(level, doc)
		if level.Terminal {
			var learned *kb.Extraction
			res.Objects, res.Failures, learned = typ.ExtractPage(level, doc, h.learned(root, nil))
			h.learned(root, learned)
		}
		res.Failures = append(navFails, res.Failures...)
	} else {
		var learned *kb.Extraction
		res.Objects, learned = typ.ExtractUnleveled(doc, h.learned(root, nil))
		h.learned(root, learned)
	}
	if h.opts.Observe != nil {
		h.opts.Observe(res)
		level = res.Level
	}
	an.Annotation = "app:" + typ.ID
	if level != nil {
		an.Annotation += "/" + level.Name
	}
	if level == nil || typ.Generic {
		// A page of the application no level describes, or of a
		// category's generic type: its links, but never those the
		// application's avoid patterns exclude.
		an.Follow = slices.DeleteFunc(slices.Clone(found), func(l extract.Outlink) bool { return avoids(typ, l) })
	} else {
		an.Links, an.Follow = h.follow(typ, found, res.Links)
	}
	for _, l := range res.More {
		if u, err := h.canon.Parse(l.URL); err == nil {
			an.Follow = append(an.Follow, extract.Outlink{URL: u, Hop: extract.Link, Context: "aah:" + l.Target})
		}
	}
	an.Quads = describe(root, res)
	for _, o := range res.Objects {
		if o.Content != "" {
			an.Content = append(an.Content, o.Content)
		}
	}
	return an, h.count(root, level != nil, len(res.Objects))
}

// follow returns the links to record (the page's, with any the
// navigation chose that the standard extractor did not see) and those to
// follow: the navigation's links, and the page's embeds and redirects an
// archive needs to replay it, but those the type avoids (a wiki's
// indexing beacon, say).
func (h *Helper) follow(typ *kb.Type, found []extract.Outlink, nav []kb.Link) (links, follow []extract.Outlink) {
	byURL := make(map[string]int, len(found))
	for i, l := range found {
		if l.Hop == extract.Link {
			byURL[l.URL.Canonical] = i
		}
		if (l.Hop == extract.Embed || l.Hop == extract.Redirect) && !avoids(typ, l) {
			follow = append(follow, l)
		}
	}
	links = found
	for _, n := range nav {
		u, err := h.canon.Parse(n.URL)
		if err != nil {
			continue
		}
		l := extract.Outlink{URL: u, Hop: extract.Link, Context: "aah:" + n.Target}
		if i, ok := byURL[u.Canonical]; ok {
			l.Text, l.Paragraph = found[i].Text, found[i].Paragraph
		} else {
			links = append(links, l)
		}
		follow = append(follow, l)
	}
	return links, follow
}

// known reports whether the application of the site at root is in the
// knowledge base.
func (h *Helper) known(root string) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	site, err := h.sites.get(root)
	if err != nil {
		return false, err
	}
	return site.Type != nil, nil
}

// classify returns, when the application of the page's site (root) is
// in the knowledge base, its type and the page's level. The application is
// detected once per site and again on a page that no level of the known
// type matches, which is how a site that changed (or that an earlier page
// misnamed) is noticed.
func (h *Helper) classify(root string, u canon.URL, doc *vdoc.Doc) (*kb.Type, *kb.Level, error) {
	h.mu.Lock()
	site, err := h.sites.get(root)
	var typ *kb.Type
	if site != nil {
		typ = site.Type
	}
	h.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	if typ != nil {
		if level, _ := typ.LevelOf(doc); level != nil {
			return typ, level, nil
		}
	}
	det := h.det.Detect(doc)
	app, name, pattern := det.App(), "", ""
	switch {
	case det.Type != nil && det.Pattern != nil:
		name, pattern = det.Type.Name, det.Pattern.String()
	case det.Technology != nil:
		name, pattern = det.Technology.Name, "fingerprint "+det.Technology.Name
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	// Read again: the site may have been spilled while this page was
	// detected.
	if site, err = h.sites.get(root); err != nil {
		return nil, nil, err
	}
	if app != "" && app != site.App {
		if site.App != "" {
			fmt.Fprintf(h.opts.Log, "aah: %s: application changed from %s to %s (on %s)\n", site.Root, site.Name, name, u.Href)
		} else {
			fmt.Fprintf(h.opts.Log, "aah: %s is %s (%s), detected on %s by %s\n", site.Root, name, det.Category(), u.Href, pattern)
		}
		site.App, site.Name, site.Type, site.Pattern, site.DetectedAt = app, name, det.Type, pattern, u.Href
	}
	if site.Type == nil {
		return nil, nil, nil
	}
	if det.Type == site.Type {
		return site.Type, det.Level, nil
	}
	return site.Type, nil, nil
}

func (h *Helper) count(root string, leveled bool, objects int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	site, err := h.sites.get(root)
	if err != nil {
		return err
	}
	site.Pages++
	if leveled {
		site.Leveled++
	}
	site.Objects += objects
	return nil
}

// Sites returns what the helper knows of each site it saw, by root URL.
func (h *Helper) Sites() ([]Site, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sites.all()
}

func avoids(typ *kb.Type, l extract.Outlink) bool {
	u, err := url.Parse(l.URL.Href)
	return err != nil || typ.Avoids(u)
}

// siteRoot is the root URL of u's site.
func siteRoot(u canon.URL) string {
	host := u.Host
	if u.Port != "" {
		host += ":" + u.Port
	}
	return u.Scheme + "://" + host + "/"
}

// learned stores x as the mined extraction of the site at root (when not
// nil) and returns the site's current one.
func (h *Helper) learned(root string, x *kb.Extraction) *kb.Extraction {
	h.mu.Lock()
	defer h.mu.Unlock()
	if e, ok := h.mined[root]; ok {
		h.minedLRU.MoveToFront(e)
		if x != nil {
			e.Value.(*minedSite).x = x
		}
		return e.Value.(*minedSite).x
	}
	if x == nil {
		return nil
	}
	h.mined[root] = h.minedLRU.PushFront(&minedSite{root, x})
	if h.minedLRU.Len() > h.maxLearnt {
		old := h.minedLRU.Remove(h.minedLRU.Back()).(*minedSite)
		delete(h.mined, old.root)
	}
	return x
}

// probe reports whether a page of the site at root, of no known
// application, is to be mined, and counts it.
func (h *Helper) probe(root string) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	site, err := h.sites.get(root)
	if err != nil || site.Probes >= probePages {
		return false, err
	}
	site.Probes++
	return true, nil
}

// candidate counts a page of the site at root, of no known application,
// that could name one, and reports whether to detect it (freeCandidates).
func (h *Helper) candidate(root string) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	site, err := h.sites.get(root)
	if err != nil {
		return false, err
	}
	site.Candidates++
	n := site.Candidates
	return n <= freeCandidates || n&(n-1) == 0, nil
}

// mineSite mines a page of a site of no known application for the
// records of a forum thread; when it finds them (two posts or more, each
// with an author and a date) the site becomes a generic forum, whose
// pages are then all analyzed and its extraction kept for them.
func (h *Helper) mineSite(root string, u canon.URL, doc *vdoc.Doc) (*kb.Type, *kb.Level, error) {
	objs, x := kb.MineObjects(doc, kb.ForumPost, nil)
	if !kb.Thread(objs) {
		return nil, nil, nil
	}
	typ := kb.Generic("forum")
	h.learned(root, x)
	h.mu.Lock()
	defer h.mu.Unlock()
	site, err := h.sites.get(root)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(h.opts.Log, "aah: %s is a forum of an unknown engine, detected on %s by its records %s\n", site.Root, u.Href, x.Records)
	site.App, site.Name, site.Type, site.Pattern, site.DetectedAt = typ.ID, typ.Name, typ, "mined "+x.Records.String(), u.Href
	return typ, typ.Levels[0], nil
}
