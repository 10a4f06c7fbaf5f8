package canon

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Pieces of URLs, chosen to sit on both sides of every test fastParse and
// fastResolve make before accepting an input.
var (
	corpusSchemes = []string{"http", "HTTP", "https", "HtTpS", "ftp", "ws", "file", "mailto", "javascript", "data", "h1+.-", "1http"}
	corpusSeps    = []string{"://", "://", "://", ":/", ":", ":///", ":\\\\", ":/\\", "//"}
	corpusUser    = []string{"", "", "", "u@", "u:p@", "@", ":@"}
	corpusHosts   = []string{"example.com", "EXAMPLE.Com", "www.example.co.uk", "a", "localhost", "a-b.c-d.org", "1a.com", "a.b1",
		"127.0.0.1", "0.0.0.0", "255.255.255.255", "127.1", "0x7f.0.0.1", "010.0.0.1", "1.2.3.256", "1.2.3.4.5", "1.2.3.", "a.123", "a.0x1f", "3279880203",
		"[::1]", "[0:0::1]", "xn--bcher-kva.ch", "XN--BCHER-KVA.ch", "ab--cd.com", "bücher.ch", "a..b", ".a", "a.", "-a.com", "a-.com", "a_b.com",
		"ex%41mple.com", "exa mple.com", "", strings.Repeat("l", 70) + ".com", "a%2eb", "a\tb.com", "xn--.com", "ß.de"}
	corpusPorts = []string{"", "", "", ":", ":80", ":443", ":8080", ":080", ":0", ":65535", ":65536", ":99999999", ":8x", ":+1"}
	corpusPaths = []string{"", "", "/", "/a/b", "/a/b/", "/a/./b/../c", "/%2e%2E/x", "/a/%2e", "/a/%2E%2e", "/.%2e/", "/%2e./y", "/a/..", "/a/.", "/a/...",
		"/..", "/../..", "/./", "//double//slash", "/a b", `/a"<>` + "`{}|^", "/~%7e%7E%41%2f%2F", "/100%", "/%%34%31", "/%zz", "/a;jsessionid=0123456789ABCDEF0123456789abcdef/b",
		"/(S(4hqa0555fwsecu455xqckv45))/a.aspx", "/é", "/a\tb", "/a\\b", "/a\nb", "/C:/x", "/a'b", "/a%00b", "/a\x7fb", "/ä/%C3%A4"}
	corpusQueries = []string{"", "", "", "?", "?a=1&b=2", "?b=2&a=1", "?&&", "?a=1&", "?q='x'", `?q="x"<y>` + "`", "?sid=9682993c8daa2c5497996114facdc805",
		"?CFID=1&CFTOKEN=2", "?a b", "?%7e%7E%41%2f", "?x=/y?z", "?é", "?a\tb", "?{}|"}
	corpusFragments = []string{"", "", "", "#", "#f", "#a b", "#`x`<>\"", "#%7e", "##", "#a?b/c", "#é", "#a\tb", "#{}'"}
	corpusSpace     = []string{"", "", "", "", " ", "\t", "\n", "\x00", " \x1f"}
	corpusRefs      = []string{"", "#x", "#", "?q", "?", "a", "./a", "../a", "../../../../a", ".", "..", "./", "../", "a/..", "a/.", "%2e%2e/x", "%2e/x", ".%2E",
		"/a", "/", "//h.com/p", "//H.com:80", "//", "///x", "//@h", "//h:8080/?#", "//h:/", "http://x/y", "HTTP:x", "http:x", "https:x", "http:/x", "https://y",
		"http:\\\\h\\a", "ftp://f/", "ws://w", "mailto:a@b", "javascript:void(0)", "a:b", "1a:b", "a+b.c-d:e", "file:x", "data:,x", "a?b#c", "a b", "é", "a\\b", "\\\\h/x",
		"?a=1&&b", "#a b", ";x", "a;jsessionid=0123456789ABCDEF0123456789abcdef", "a/(S(4hqa0555fwsecu455xqckv45))/b.aspx"}
)

func pick(r *rand.Rand, s []string) string { return s[r.IntN(len(s))] }

// pickPlain picks one of the first n pieces, the plain ones, nine times in
// ten, so that generated URLs are often plain enough for the fast path and
// then differ from a plain URL in one or two places.
func pickPlain(r *rand.Rand, s []string, n int) string {
	if r.IntN(10) > 0 {
		return s[r.IntN(n)]
	}
	return pick(r, s)
}

// corpusURL builds a random absolute URL from the pieces.
func corpusURL(r *rand.Rand) string {
	return pickPlain(r, corpusSpace, 4) + pickPlain(r, corpusSchemes, 4) + pickPlain(r, corpusSeps, 2) + pickPlain(r, corpusUser, 3) +
		pickPlain(r, corpusHosts, 11) + pickPlain(r, corpusPorts, 9) + pickPlain(r, corpusPaths, 22) + pickPlain(r, corpusQueries, 14) +
		pickPlain(r, corpusFragments, 11) + pickPlain(r, corpusSpace, 4)
}

// corpusRef builds a random reference: a known one, optionally extended.
func corpusRef(r *rand.Rand) string {
	ref := pick(r, corpusRefs)
	switch r.IntN(4) {
	case 0:
		ref += pick(r, corpusPaths)
	case 1:
		ref += pick(r, corpusQueries) + pick(r, corpusFragments)
	case 2:
		ref = corpusURL(r)
	}
	return pickPlain(r, corpusSpace, 4) + ref + pickPlain(r, corpusSpace, 4)
}

// handwritten are the inputs of the other tests and the fuzz seeds.
func handwritten(t *testing.T) []string {
	in := []string{
		"HTTP://www.EXAMPLE.com:80/a/./b/../c?x=1#frag", "https://example.com:443", "http://example.com:8080/", "http://bücher.ch/ä?ö=1",
		"http://☃.com/", "http://ΕΛΛΗΝΙΚΆ.gr/", "http://ex%41mple.com/", "http://example.com/%7euser/%2fa%2F?q=%7e&r=%3d",
		"http://example.com/a b<>\"", "http://example.com/100%", "  http:\\\\example.com\\a\\b  ", "http://exa\tmple.com/a\nb",
		"http:example.com/x", "http://0x7f.1/", "http://3279880203/blah", "http://[0:0::1]/", "http://example.com/?", "http://user:pw@example.com/",
		"mailto:Foo@Example.com", "file:///etc/passwd", "HTTPS://u:p@Sub.Example.CO.UK:8443/a/b?x=1&y#top", "http://", "http://exa mple.com/",
		"http://a:99999/", "//foo", "", "http://[::1/", "http://www.Example.com:80/a/../b?c#d", "http://[::1]:8/%7e", "mailto:x@y", "http://a/%%%25",
		"http://x/(S(4hqa0555fwsecu455xqckv45))/a.aspx?sid=1", "http://www.example.com/news/2024/index.html", "../2023/story.html?id=7",
		"http://example.com/a/b/c.html?x#y", "http://127.0.0.1:8080/p1", "https://www.example.com/news/2025/story.html",
		"/section/1/", "/news/2025/03/related-story-7.html?ref=inline&pos=3", "//partner3.example.org/", "https://www.example.com/most-read/4",
	}
	// The fuzz corpus: files of "go test fuzz v1" and one string(...) line.
	files, _ := filepath.Glob("testdata/fuzz/*/*")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "string("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(rest, ")"))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				in = append(in, s)
			}
		}
	}
	return in
}

// sameURL compares every field but the WHATWG form, which only the WHATWG
// parser sets.
func sameURL(a, b URL) bool {
	a.parsed, b.parsed = nil, nil
	return a == b
}

func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Error() == b.Error()
}

// checkParse fails when Parse and the WHATWG parser disagree on raw and
// reports whether the fast path took it.
func checkParse(t testing.TB, c *Canonicalizer, raw string) bool {
	want, werr := c.parseWHATWG(raw)
	got, gerr := c.Parse(raw)
	if !sameURL(got, want) || !sameErr(gerr, werr) {
		t.Fatalf("Parse(%q):\n got %+v, %v\nwant %+v, %v", raw, got, gerr, want, werr)
	}
	_, fast := c.fastParse(raw)
	return fast
}

// checkResolve fails when Resolve or ResolveBytes and the WHATWG parser
// disagree on ref against base and reports whether the fast path took it. The expected
// result comes from a base made by the WHATWG parser; Resolve gets the base
// as Parse makes it, so that fast-path bases are covered.
func checkResolve(t testing.TB, c *Canonicalizer, base, ref string) bool {
	wbase, err := c.parseWHATWG(base)
	if err != nil {
		return false
	}
	fbase, _ := c.Parse(base)
	want, werr := c.resolveWHATWG(wbase, ref)
	got, gerr := c.Resolve(fbase, ref)
	if !sameURL(got, want) || !sameErr(gerr, werr) {
		t.Fatalf("Resolve(%q, %q):\n got %+v, %v\nwant %+v, %v", base, ref, got, gerr, want, werr)
	}
	got2 := URL{Href: "stale", Fragment: "stale", Query: "stale", HasQuery: true} // ResolveBytes must overwrite all of it
	if gerr := c.ResolveBytes(&got2, &fbase, []byte(ref)); !sameURL(got2, want) || !sameErr(gerr, werr) {
		t.Fatalf("ResolveBytes(%q, %q):\n got %+v, %v\nwant %+v, %v", base, ref, got2, gerr, want, werr)
	}
	_, how := c.fastResolve(fbase, ref)
	return how == resolved
}

var diffOptions = []Options{{}, HeritrixOptions(), {KeepFragment: true, KeepUserinfo: true, KeepSessionIDs: true, SortQuery: true, KeepEmptyQuery: true}}

// TestFastPathMatchesWHATWG runs Parse and Resolve over the hand-written
// inputs and 30,000 generated ones and compares them field by field with the
// WHATWG parser. It also checks that the fast path takes a good share of
// them, so that the comparison is not empty.
func TestFastPathMatchesWHATWG(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	inputs := handwritten(t)
	for range 15000 {
		inputs = append(inputs, corpusURL(r))
	}
	bases := []string{"http://example.com/a/b/c.html?x#y", "https://h.org", "http://h:8080/d/", "http://127.0.0.1/x", "http://[::1]/a/b",
		"http://bücher.ch/ä/ö", "http://u:p@h/a", "http://h/%7euser/x%2fy/z", "http://h/%%34%31/q?%%34%31", "HTTP://H/a%2e%2eb/c?",
		"file:///etc/x", "mailto:x@y", "ftp://f/a/b", "http://h/a/b/%2e%2e"}
	for _, opts := range diffOptions {
		c := New(opts)
		parsed := 0
		for _, in := range inputs {
			if checkParse(t, c, in) {
				parsed++
			}
		}
		resolved, tried := 0, 0
		for i := range 15000 {
			base, ref := bases[i%len(bases)], corpusRef(r)
			if i%3 == 0 {
				base = inputs[r.IntN(len(inputs))]
			}
			tried++
			if checkResolve(t, c, base, ref) {
				resolved++
			}
		}
		for _, base := range bases {
			for _, ref := range append(corpusRefs, inputs[:50]...) {
				tried++
				if checkResolve(t, c, base, ref) {
					resolved++
				}
			}
		}
		t.Logf("options %+v: fast path took %d of %d parses, %d of %d resolutions", opts, parsed, len(inputs), resolved, tried)
		if parsed < len(inputs)/20 || resolved < tried/5 {
			t.Errorf("fast path took only %d of %d parses, %d of %d resolutions", parsed, len(inputs), resolved, tried)
		}
	}
}

// TestFastPathTakesCommonURLs pins down which inputs the fast path accepts:
// the shapes a crawl meets on nearly every page must not fall back.
func TestFastPathTakesCommonURLs(t *testing.T) {
	c := New(Options{})
	for _, in := range []string{"http://example.com", "HTTPS://WWW.Example.COM:8443/a/b.html?x=1&y=%7e#top", "http://127.0.0.1:8080/p1",
		"http://h/a b", "http://h/%2e%2e/x"} {
		if _, ok := c.fastParse(in); !ok {
			t.Errorf("fastParse(%q) declined", in)
		}
	}
	for _, in := range []string{"http://bücher.ch/", "http://u@h/", "http://[::1]/", "http://127.1/", "http:\\\\h", "http://h/\ta", "mailto:a@b", "http://xn--bcher-kva.ch/"} {
		if _, ok := c.fastParse(in); ok {
			t.Errorf("fastParse(%q) accepted an input it should leave to WHATWG", in)
		}
	}
	base, err := c.Parse("https://www.example.com/news/2025/story.html?q")
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"/section/1/", "related-story-7.html?ref=inline&pos=3", "../x", "//partner3.example.org/", "https://other.org/x",
		"?page=2", "#top", "", "HTTP://a.b"} {
		if _, how := c.fastResolve(base, ref); how != resolved {
			t.Errorf("fastResolve(%q) declined", ref)
		}
	}
	for _, tt := range []struct {
		ref  string
		want resolution
	}{{"mailto:a@b", absoluteOnly}, {"javascript:void(0)", absoluteOnly}, {"http://bücher.ch/", absoluteOnly}, {"https:x", needBase}, {"é", needBase}, {"a\\b", needBase}} {
		if _, how := c.fastResolve(base, tt.ref); how != tt.want {
			t.Errorf("fastResolve(%q) = %d, want %d", tt.ref, how, tt.want)
		}
	}
}

func TestFixQueryShortcut(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	params := []string{"", "a=1", "b=2", "a", "sid=9682993c8daa2c5497996114facdc805", "CFID=1", "cftoken=2", "aspsessionidABCDEFGH=ABCDEFGHIJKLMNOPQRSTUVWX", "b=0", "c="}
	for range 5000 {
		n := 1 + r.IntN(5)
		ps := make([]string, n)
		for i := range ps {
			ps[i] = pick(r, params)
		}
		q := strings.Join(ps, "&")
		for mask := range 8 {
			strip, sort, drop := mask&1 != 0, mask&2 != 0, mask&4 != 0
			if got, want := fixQuery(q, strip, sort, drop), rewriteQuery(q, strip, sort, drop); got != want {
				t.Fatalf("fixQuery(%q, %v, %v, %v) = %q, want %q", q, strip, sort, drop, got, want)
			}
		}
	}
}

// FuzzFastPath compares the fast path with the WHATWG parser on any base and
// reference: they must agree wherever the fast path answers.
func FuzzFastPath(f *testing.F) {
	f.Add("http://example.com/a/b/c.html?x#y", "../d?q#f")
	f.Add("https://H.org:443", "//x.org:80/%2e%2e/a b")
	f.Add("http://h/%%34%31/", "?a'b#c`")
	f.Add("http://127.0.0.1:8080/p1", "HTTP:x")
	f.Add("http://bücher.ch/ä", "./%2e/x")
	c := New(Options{})
	f.Fuzz(func(t *testing.T, base, ref string) {
		checkParse(t, c, base)
		checkParse(t, c, ref)
		checkResolve(t, c, base, ref)
	})
}

// directPieces build references around each check directResolve makes:
// the plain pieces first, then every class of printable ASCII, dot
// segments whole and in part, escapes, tabs, controls and non-ASCII.
var directPieces = []string{"a", "b0", "s", "3141.html", "/", "/", "/", "?", ".", "..", "...", ".a", "a.", "?", "?", "#", "%", "%2e", "%41", "'", "\"", " ", "\t", "\n",
	"|", "^", "[", "]", "{", "}", "`", "<", ">", "\\", ":", ";", "=", "&", "@", "!", "$", "(", ")", "*", "+", ",", "~", "-", "_", "é", "\x00", "\x7f"}

// directRef builds a random reference: a path from the root, a relative
// path or a query, of pieces.
func directRef(r *rand.Rand) string {
	ref := []string{"/", "", "?", "./", "//"}[r.IntN(5)]
	for range 1 + r.IntN(10) {
		ref += pickPlain(r, directPieces, 8)
	}
	return ref
}

// TestDirectResolveMatchesWHATWG compares Resolve with the WHATWG parser on
// 60,000 references built to sit on both sides of directResolve's checks,
// against bases with and without escapes in their path, and checks that
// the direct path took a good share of them.
func TestDirectResolveMatchesWHATWG(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	bases := []string{"http://example.com/a/b/c.html?x#y", "https://H.org", "http://h:8080/d/", "http://127.0.0.1/x", "http://h/%7euser/x%2fy/z",
		"http://h/a%2e%2eb/c?q", "https://www.example.com/news/2025/story.html", "http://h/a b/c", "http://h/(S(4hqa0555fwsecu455xqckv45))/a.aspx"}
	for _, opts := range diffOptions {
		c := New(opts)
		direct, tried := 0, 0
		for i := range 20000 {
			base, ref := bases[i%len(bases)], directRef(r)
			if i%4 == 0 {
				ref = pickPlain(r, corpusSpace, 4) + ref + pickPlain(r, corpusSpace, 4)
			}
			checkResolve(t, c, base, ref)
			fbase, err := c.Parse(base)
			if err != nil {
				t.Fatal(err)
			}
			tried++
			if directResolve(c, new(URL), &fbase, trimC0Space(ref)) {
				direct++
			}
		}
		t.Logf("options %+v: direct path took %d of %d resolutions", opts, direct, tried)
		if direct < tried/10 || direct > tried*9/10 {
			t.Errorf("direct path took %d of %d resolutions: the corpus misses one side of its checks", direct, tried)
		}
	}
}

// TestDirectResolveTakesCommonReferences pins down which references go the
// direct way.
func TestDirectResolveTakesCommonReferences(t *testing.T) {
	c := New(Options{})
	base, err := c.Parse("https://www.example.com/news/2025/story.html?q")
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"/s/3/3141.html", "/", "related-story-7.html?ref=inline&pos=3", "?page=2", "/a/b?x=/y?z#top", "1a:b/c", "/wp-content/themes/x.css?ver=6.4.2",
		"/index.php?title=Main_Page&action=edit", "/a;jsessionid=0123456789ABCDEF0123456789abcdef", "/a/.b/..c/..."} {
		if !directResolve(c, new(URL), &base, ref) {
			t.Errorf("directResolve(%q) declined", ref)
		}
	}
	for _, ref := range []string{"", "#top", "//h/x", "/a/./b", "/a/../b", "..", ".", "a/..", "/%7e", "/a b", "/a\tb", "/é", "/a\\b", "?q='x'", "/a|b", "/a#b\tc", "a:b/c", "http:x"} {
		if directResolve(c, new(URL), &base, ref) {
			t.Errorf("directResolve(%q) accepted a reference it should leave to the general path", ref)
		}
	}
	escaped, err := c.Parse("http://h/%7euser/x")
	if err != nil {
		t.Fatal(err)
	}
	if directResolve(c, new(URL), &escaped, "y") {
		t.Errorf("directResolve resolved a relative path against a base whose path Href normalised")
	}
}

// FuzzDirectResolve compares Resolve with the WHATWG parser on references
// of the direct kind and their near misses.
func FuzzDirectResolve(f *testing.F) {
	for _, ref := range []string{"/s/3/3141.html", "story.html?id=7#c", "?page=2", "/a/.b/..c", "/a/./b", "/a?b'c", "/%2e/x", "a:b/c"} {
		f.Add("http://example.com/a/b/c.html?x#y", ref)
	}
	f.Add("http://h/%7euser/x", "y")
	f.Add("http://h/a", "a:b/c")
	c := New(Options{})
	f.Fuzz(func(t *testing.T, base, ref string) {
		checkResolve(t, c, base, ref)
	})
}
