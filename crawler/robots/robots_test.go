package robots

import (
	"strings"
	"testing"
	"time"
)

type check struct {
	path    string
	allowed bool
}

func runChecks(t *testing.T, name string, a *Agent, checks []check) {
	t.Helper()
	for _, c := range checks {
		if d := a.Check(c.path); d.Allowed != c.allowed {
			t.Errorf("%s: Check(%q) = %v (%s), want allowed=%v", name, c.path, d.Allowed, d.Rule, c.allowed)
		}
	}
}

// RFC 9309 §5.1, "Simple Example".
const rfcSimple = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`

func TestRFCSimpleExample(t *testing.T) {
	r := Parse([]byte(rfcSimple))
	runChecks(t, "foobot", r.Agent("FooBot"), []check{
		{"/example/page.html", true}, {"/example/allowed.gif", true},
		{"/example/other.html", false}, {"/", false}, {"/publications/", false},
	})
	for _, bot := range []string{"barbot", "bazbot"} {
		runChecks(t, bot, r.Agent(bot), []check{
			{"/example/page.html", false}, {"/example/other.html", true}, {"/a.gif", true},
		})
	}
	// quxbot's group is empty: it allows everything, without falling back to "*".
	runChecks(t, "quxbot", r.Agent("quxbot"), []check{{"/a.gif", true}, {"/example/x", true}})
	runChecks(t, "otherbot", r.Agent("otherbot"), []check{
		{"/a.gif", false}, {"/a.gif?x", true}, {"/example/x", false},
		{"/publications/x", true}, {"/other", true},
	})
}

// RFC 9309 §5.2, "Longest Match".
func TestRFCLongestMatch(t *testing.T) {
	r := Parse([]byte("User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"))
	runChecks(t, "foobot", r.Agent("foobot"), []check{
		{"/example/page/", true}, {"/example/page/x.html", true}, {"/example/page/disallowed.gif", false},
	})
}

// RFC 9309 §2.2.1: groups naming the same agent are merged.
func TestRFCGroupMerging(t *testing.T) {
	r := Parse([]byte("user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n"))
	runChecks(t, "examplebot", r.Agent("examplebot"), []check{
		{"/foo", false}, {"/bar", false}, {"/baz/x", false}, {"/qux", true},
	})
}

// RFC 9309 §2.2.2 and §2.2.3: percent-encoding and special characters.
func TestRFCEncoding(t *testing.T) {
	tests := []struct {
		pattern, path string
		match         bool
	}{
		{"/foo/bar?baz=quz", "/foo/bar?baz=quz", true},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84", true},
		{"/foo/bar/%E3%83%84", "/foo/bar/%e3%83%84", true},
		{"/foo/bar/%62%61%7A", "/foo/bar/baz", true},
		{"/foo/bar/baz", "/foo/bar/%62%61%7A", true},
		{"/path/file-with-a-%2A.html", "/path/file-with-a-*.html", true},
		{"/path/foo-%24", "/path/foo-$", true},
		{"/a%2Fb", "/a/b", false}, // an encoded '/' is a reserved character: not decoded
		{"/a b", "/a%20b", true},
	}
	for _, tt := range tests {
		a := Parse([]byte("user-agent: *\ndisallow: " + tt.pattern + "\n")).Agent("x")
		if got := !a.Allowed(tt.path); got != tt.match {
			t.Errorf("pattern %q vs %q: matched=%v, want %v", tt.pattern, tt.path, got, tt.match)
		}
	}
}

// Path-matching examples from Google's robots.txt specification.
func TestGoogleWildcards(t *testing.T) {
	tests := []struct {
		pattern string
		match   []string
		nomatch []string
	}{
		{"/fish", []string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"},
			[]string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"}},
		{"/fish*", []string{"/fish", "/fish.html", "/fishheads/yummy.html"}, []string{"/Fish.asp", "/catfish"}},
		{"/fish/", []string{"/fish/", "/fish/?id=anything", "/fish/salmon.htm"}, []string{"/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"}},
		{"/*.php", []string{"/index.php", "/filename.php", "/folder/filename.php", "/folder/filename.php?parameters", "/folder/any.php.file.html", "/filename.php/"},
			[]string{"/", "/windows.PHP"}},
		{"/*.php$", []string{"/filename.php", "/folder/filename.php"}, []string{"/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"}},
		{"/fish*.php", []string{"/fish.php", "/fishheads/catfish.php?parameters"}, []string{"/Fish.PHP"}},
		{"*", []string{"/", "/anything"}, nil},
		{"/$", []string{"/"}, []string{"/a"}},
		{"/a*b*c$", []string{"/abc", "/aXbYc", "/abbbcc", "/a/b/c"}, []string{"/ab", "/abcd", "/acb"}},
	}
	for _, tt := range tests {
		a := Parse([]byte("user-agent: *\ndisallow: " + tt.pattern + "\n")).Agent("x")
		for _, p := range tt.match {
			if a.Allowed(p) {
				t.Errorf("pattern %q should match %q", tt.pattern, p)
			}
		}
		for _, p := range tt.nomatch {
			if !a.Allowed(p) {
				t.Errorf("pattern %q should not match %q", tt.pattern, p)
			}
		}
	}
}

// Order-of-precedence examples from Google's specification.
func TestGooglePrecedence(t *testing.T) {
	tests := []struct {
		rules, path string
		allowed     bool
	}{
		{"allow: /p\ndisallow: /", "/page", true},
		{"allow: /folder\ndisallow: /folder", "/folder/page", true},
		{"disallow: /folder\nallow: /folder", "/folder/page", true},
		{"allow: /page\ndisallow: /*.htm", "/page.htm", false},
		{"allow: /page\ndisallow: /*.ph", "/page.php5", true},
		{"allow: /$\ndisallow: /", "/", true},
		{"allow: /$\ndisallow: /", "/page.htm", false},
	}
	for _, tt := range tests {
		a := Parse([]byte("user-agent: *\n" + tt.rules + "\n")).Agent("x")
		if d := a.Check(tt.path); d.Allowed != tt.allowed {
			t.Errorf("%q on %q = %v (%s), want %v", tt.rules, tt.path, d.Allowed, d.Rule, tt.allowed)
		}
	}
}

func TestParsingQuirks(t *testing.T) {
	tests := []struct {
		name, file, agent string
		checks            []check
	}{
		{"keys are case-insensitive", "USER-AGENT: FooBot\nDISALLOW: /x\n", "foobot", []check{{"/x", false}}},
		{"product token before version", "User-agent: foobot/2.1 (+http://foo)\nDisallow: /\n", "FOOBOT", []check{{"/a", false}}},
		{"longer token is another agent", "User-agent: foobot-news\nDisallow: /\n", "foobot", []check{{"/a", true}}},
		{"rules before user-agent ignored", "Disallow: /\nUser-agent: *\nDisallow: /x\n", "a", []check{{"/a", true}, {"/x", false}}},
		{"blank line does not end agents", "User-agent: a\n\nUser-agent: b\nDisallow: /\n", "a", []check{{"/", false}}},
		{"comments and CR line ends", "User-agent: * # all\rDisallow: /x # no\r\n# Disallow: /y\n", "a", []check{{"/x", false}, {"/y", true}}},
		{"byte order mark", "\xEF\xBB\xBFUser-agent: *\nDisallow: /x\n", "a", []check{{"/x", false}}},
		{"empty disallow allows", "User-agent: *\nDisallow:\n", "a", []check{{"/x", true}}},
		{"robots.txt always allowed", "User-agent: *\nDisallow: /\n", "a", []check{{"/robots.txt", true}, {"/robots.txt?x", false}}},
		{"empty path is root", "User-agent: *\nDisallow: /$\n", "a", []check{{"", false}}},
		{"garbage ignored", "<html>\nUser-agent: *\nnonsense line\nDisallow /nocolon\nDisallow: /x\n", "a", []check{{"/x", false}, {"/nocolon", true}}},
		{"common misspelling", "User agent: *\nDissallow: /x\n", "a", []check{{"/x", false}}},
		{"no groups allows all", "Sitemap: http://e.org/s.xml\n", "a", []check{{"/x", true}}},
	}
	for _, tt := range tests {
		runChecks(t, tt.name, Parse([]byte(tt.file)).Agent(tt.agent), tt.checks)
	}
}

func TestDecisionNamesRule(t *testing.T) {
	a := Parse([]byte("User-agent: *\nDisallow: /private/\nAllow: /private/ok$\n")).Agent("x")
	for path, want := range map[string]string{
		"/private/x":  "disallow: /private/",
		"/private/ok": "allow: /private/ok$",
		"/public":     "no matching rule",
	} {
		if got := a.Check(path).Rule; got != want {
			t.Errorf("Check(%q).Rule = %q, want %q", path, got, want)
		}
	}
}

func TestCrawlDelayAndSitemaps(t *testing.T) {
	r := Parse([]byte("Sitemap: https://e.org/a.xml\nUser-agent: *\nCrawl-delay: 2.5\nDisallow: /x\n\nUser-agent: slow\nCrawl-delay: 30\nUser-agent: slow\nCrawl-delay: 90\n\nUser-agent: odd\nCrawl-delay: soon\nsitemap: https://e.org/b.xml\n"))
	if strings.Join(r.Sitemaps, " ") != "https://e.org/a.xml https://e.org/b.xml" {
		t.Errorf("Sitemaps = %q", r.Sitemaps)
	}
	tests := []struct {
		agent string
		limit time.Duration
		want  time.Duration
		set   bool
	}{
		{"any", time.Minute, 2500 * time.Millisecond, true},
		{"slow", time.Minute, time.Minute, true},
		{"slow", 2 * time.Minute, 90 * time.Second, true},
		{"odd", time.Minute, 0, false},
	}
	for _, tt := range tests {
		d, set := r.Agent(tt.agent).CrawlDelay(tt.limit)
		if d != tt.want || set != tt.set {
			t.Errorf("%s: CrawlDelay(%v) = %v, %v; want %v, %v", tt.agent, tt.limit, d, set, tt.want, tt.set)
		}
	}
}

func TestParseLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /early\n")
	for b.Len() < MaxBytes-10 {
		b.WriteString("# padding padding padding padding\n")
	}
	b.WriteString("Disallow: /straddles-the-limit\nDisallow: /late\n")
	a := Parse([]byte(b.String())).Agent("x")
	runChecks(t, "500 KiB", a, []check{{"/early", false}, {"/straddles-the-limit", true}, {"/late", true}})
}

func TestPolicy(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /x\n")
	tests := []struct {
		status int
		err    error
		kind   Kind
		x, y   bool // allowed for /x and /y
	}{
		{200, nil, Available, false, true},
		{204, nil, Available, false, true},
		{301, nil, Unavailable, true, true},
		{401, nil, Unavailable, true, true},
		{403, nil, Unavailable, true, true},
		{404, nil, Unavailable, true, true},
		{410, nil, Unavailable, true, true},
		{429, nil, Unreachable, false, false},
		{500, nil, Unreachable, false, false},
		{503, nil, Unreachable, false, false},
		{100, nil, Unreachable, false, false},
		{200, errFake("read tcp: connection reset"), Unreachable, false, false},
		{0, errFake("dial tcp: i/o timeout"), Unreachable, false, false},
	}
	for _, tt := range tests {
		r := FromResponse(tt.status, body, tt.err)
		a := r.Agent("x")
		if r.Kind != tt.kind || a.Allowed("/x") != tt.x || a.Allowed("/y") != tt.y || r.Reason == "" {
			t.Errorf("status %d err %v: kind %v x=%v y=%v reason %q; want %v x=%v y=%v",
				tt.status, tt.err, r.Kind, a.Allowed("/x"), a.Allowed("/y"), r.Reason, tt.kind, tt.x, tt.y)
		}
	}
	if d := FromResponse(503, nil, nil).Agent("x").Check("/"); !strings.Contains(d.Rule, "unreachable: status 503") {
		t.Errorf("unreachable decision rule = %q", d.Rule)
	}
}

type errFake string

func (e errFake) Error() string { return string(e) }
