package synthweb

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/robots"
)

// TestDemoRobots checks each site's robots.txt with the crawler's parser,
// wildcard rules included, against URLs the sites link to.
func TestDemoRobots(t *testing.T) {
	d := startDemo(t)
	var post *blogPost
	for _, p := range newBlog(d.Bases).posts {
		if len(p.Comments) > 0 {
			post = p
			break
		}
	}
	postPath := strings.TrimPrefix(post.URL, d.Blog)
	cases := []struct {
		base, linkedFrom, path string
		allowed                bool
	}{
		{d.Blog, post.URL, postPath, true},
		{d.Blog, post.URL, postPath + "?replytocom=" + fmt.Sprint(post.Comments[0].ID), false},
		{d.Blog, d.Blog + "/", "/wp-login.php", false},
		{d.Forum, d.Forum + "/viewtopic.php?t=101", "/viewtopic.php?t=101&view=print", false},
		{d.Forum, d.Forum + "/viewtopic.php?t=101", "/posting.php?mode=reply&t=101", false},
		{d.Forum, d.Forum + "/viewtopic.php?t=101&start=0", "/viewtopic.php?t=101", true},
		{d.Wiki, d.Wiki + "/wiki/Dipper", "/w/index.php?title=Dipper&action=edit", false},
		{d.Wiki, d.Wiki + "/wiki/Dipper", "/w/index.php?title=Dipper&printable=yes", false},
		{d.Wiki, d.Wiki + "/wiki/Dipper", "/w/index.php?title=Dipper&action=history", true},
	}
	for _, c := range cases {
		agent := robots.Parse(fetch(t, c.base+"/robots.txt").body).Agent("mneme")
		if got := agent.Allowed(c.path); got != c.allowed {
			t.Errorf("%s%s: allowed %v, want %v", c.base, c.path, got, c.allowed)
		}
		page := fetch(t, c.linkedFrom)
		link := strings.ReplaceAll(c.path, "&", "&amp;")
		if c.base == d.Forum {
			link = "./" + strings.TrimPrefix(link, "/")
		}
		if !strings.Contains(string(page.body), link) && !strings.Contains(string(page.body), c.base+link) {
			t.Errorf("%s does not link to %s", c.linkedFrom, link)
		}
	}
}

var nextRE = regexp.MustCompile(`href="([^"]+)"[^>]*rel="next"`)

// TestDemoCalendarTrap follows the events calendar forward: every month
// links to the next, years past the blog's dates included.
func TestDemoCalendarTrap(t *testing.T) {
	d := startDemo(t)
	u := d.Blog + "/events/month/2024-06/"
	for range 40 {
		p := fetch(t, u)
		m := nextRE.FindSubmatch(p.body)
		if p.status != http.StatusOK || m == nil {
			t.Fatalf("%s: status %d, next link %q", u, p.status, m)
		}
		u = string(m[1])
	}
	if want := d.Blog + "/events/month/2027-10/"; u != want {
		t.Errorf("40 months after June 2024: %s, want %s", u, want)
	}
}

var sidRE = regexp.MustCompile(`viewforum\.php\?f=2&amp;sid=([0-9a-f]{32})"`)

// TestDemoForumSessionIDs: without a cookie every page hands out its own
// session id in its links; the crawler's canonicalization strips them.
func TestDemoForumSessionIDs(t *testing.T) {
	d := startDemo(t)
	a := sidRE.FindSubmatch(fetch(t, d.Forum+"/index.php").body)
	b := sidRE.FindSubmatch(fetch(t, d.Forum+"/viewtopic.php?t=102").body)
	if a == nil || b == nil || string(a[1]) == string(b[1]) {
		t.Fatalf("session ids %q and %q: want two different ones", a, b)
	}
	c := canon.New(canon.Options{})
	ua, _ := c.Parse(d.Forum + "/viewforum.php?f=2&sid=" + string(a[1]))
	ub, _ := c.Parse(d.Forum + "/viewforum.php?f=2&sid=" + string(b[1]))
	if ua.Canonical != ub.Canonical || strings.Contains(ua.Canonical, "sid=") {
		t.Errorf("canonical forms %s and %s: want one without the sid", ua.Canonical, ub.Canonical)
	}
	req, _ := http.NewRequest(http.MethodGet, d.Forum+"/index.php", nil)
	req.AddCookie(&http.Cookie{Name: forumSessionCookie, Value: string(a[1])})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), "viewforum.php?f=2") || strings.Contains(string(body), "sid=") {
		t.Errorf("with the session cookie: want links without a sid")
	}
}

var newerRE = regexp.MustCompile(`href="([^"]+direction=next[^"]+)"`)

// TestDemoWikiRevisionChain walks an article's old revisions from the
// first to the latest through their "Newer revision" links.
func TestDemoWikiRevisionChain(t *testing.T) {
	d := startDemo(t)
	a := newWiki(d.Bases).articles["Kingfisher"]
	u := fmt.Sprintf("%s/w/index.php?title=Kingfisher&oldid=%d", d.Wiki, a.Revs[0].ID)
	steps := 0
	for {
		p := fetch(t, u)
		if p.status != http.StatusOK {
			t.Fatalf("%s: status %d", u, p.status)
		}
		m := newerRE.FindSubmatch(p.body)
		if m == nil {
			break
		}
		u = d.Wiki + strings.ReplaceAll(string(m[1]), "&amp;", "&")
		if steps++; steps > len(a.Revs) {
			t.Fatalf("more than %d newer revisions", len(a.Revs))
		}
	}
	if steps != len(a.Revs)-1 {
		t.Errorf("%d steps from the first revision to the last, want %d", steps, len(a.Revs)-1)
	}
}
