package synthweb

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// NewForum returns the demo forum served at b.Forum: phpBB 3.3 markup
// (prosilver) with four forums, 40 topics of up to 26 posts by 24
// members, start= pagination of forums and topics, post permalinks
// (viewtopic.php?p=) and print views as duplicate views, member profiles,
// search, login and posting pages, and a robots.txt with a wildcard rule.
// Like phpBB without cookies, every link carries a session id (sid=, 32
// hex digits) that differs on every page: a crawler that does not strip
// it sees endless new URLs.
func NewForum(b Bases) http.Handler { return newForum(b) }

// forumPage is what the forum's layout template renders.
type forumPage struct {
	f          *forum
	sid        string
	Section    string
	Title      string
	Canonical  string
	Forum      *forumDef
	Topic      *forumTopic
	Topics     []*forumTopic
	Posts      []*forumPost
	Member     *forumMember
	Count      string
	Pagination *pagination
	Heading    string
	Message    string
}

// U is the link to a forum script with the page's session id, as phpBB's
// append_sid writes it.
func (p *forumPage) U(rel string) string {
	frag := ""
	if i := strings.IndexByte(rel, '#'); i >= 0 {
		rel, frag = rel[:i], rel[i:]
	}
	if p.sid != "" {
		sep := "?"
		if strings.Contains(rel, "?") {
			sep = "&"
		}
		rel += sep + "sid=" + p.sid
	}
	return "./" + rel + frag
}

type userRef struct {
	P *forumPage
	M *forumMember
}

func (p *forumPage) User(m *forumMember) userRef { return userRef{p, m} }
func (p *forumPage) Bases() Bases                { return p.f.bases }
func (p *forumPage) Base() string                { return p.f.base }
func (p *forumPage) Forums() []*forumDef         { return p.f.forums }

// Members lists the members by id.
func (p *forumPage) Members() []*forumMember {
	var out []*forumMember
	for id := 2; id < 2+forumMembers; id++ {
		out = append(out, p.f.members[id])
	}
	return out
}

// TotalPosts counts the posts of every forum.
func (p *forumPage) TotalPosts() int { return len(p.f.posts) }

func (f *forum) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !readOnly(w, r) {
		return
	}
	switch {
	case r.URL.Path == "/robots.txt":
		writeText(w, "text/plain; charset=utf-8", "User-agent: *\nDisallow: /posting.php\nDisallow: /ucp.php\nDisallow: /search.php\nDisallow: /mcp.php\nDisallow: /*view=print\n")
		return
	case strings.HasPrefix(r.URL.Path, "/styles/") || strings.HasPrefix(r.URL.Path, "/assets/"):
		serveAsset(w, r)
		return
	}
	pg := &forumPage{f: f}
	if c, err := r.Cookie(forumSessionCookie); err != nil || c.Value == "" {
		pg.sid = sessionID(r.URL.RequestURI())
		http.SetCookie(w, &http.Cookie{Name: forumSessionCookie, Value: pg.sid, Path: "/", HttpOnly: true})
	}
	q := r.URL.Query()
	num := func(k string) int { n, _ := strconv.Atoi(q.Get(k)); return n }
	switch r.URL.Path {
	case "/", "/index.php":
		pg.Section, pg.Title, pg.Canonical = "index", "Board index", f.base+"/"
		f.render(w, pg, http.StatusOK)
	case "/viewforum.php":
		f.viewForum(w, pg, num("f"), num("start"))
	case "/viewtopic.php":
		t := f.topics[num("t")]
		start := num("start")
		if p := f.posts[num("p")]; p != nil && t == nil {
			t = p.Topic
			start = slices.Index(t.Posts, p) / forumPerPage * forumPerPage
		}
		if t == nil {
			f.message(w, pg, http.StatusNotFound, "Information", "The requested topic does not exist.")
			return
		}
		if q.Get("view") == "print" {
			renderTemplate(w, forumTemplates, "print", struct {
				Base  string
				Topic *forumTopic
			}{f.base, t}, http.StatusOK)
			return
		}
		f.viewTopic(w, pg, t, start)
	case "/memberlist.php":
		pg.Section, pg.Title = "memberlist", "Members"
		if q.Get("mode") == "viewprofile" {
			pg.Member = f.members[num("u")]
			if pg.Member == nil {
				f.message(w, pg, http.StatusNotFound, "Information", "The requested user does not exist.")
				return
			}
			pg.Title = "Viewing profile - " + pg.Member.Name
		}
		f.render(w, pg, http.StatusOK)
	case "/ucp.php", "/posting.php", "/mcp.php":
		f.message(w, pg, http.StatusOK, "Login", "You need to login in order to do this. The board requires you to be registered and logged in.")
	case "/search.php":
		f.message(w, pg, http.StatusOK, "Search", "Sorry but you are not permitted to use the search system.")
	case "/faq.php":
		f.message(w, pg, http.StatusOK, "Frequently Asked Questions", "Login and registration issues, user preferences and posting issues are answered by the board administrators.")
	default:
		f.message(w, pg, http.StatusNotFound, "Information", "The requested page could not be found.")
	}
}

func (f *forum) viewForum(w http.ResponseWriter, pg *forumPage, id, start int) {
	var fd *forumDef
	for _, d := range f.forums {
		if d.ID == id {
			fd = d
		}
	}
	if fd == nil || start < 0 || start%forumPerPage != 0 || start > 0 && start >= len(fd.Topics) {
		f.message(w, pg, http.StatusNotFound, "Information", "The forum you selected does not exist.")
		return
	}
	pg.Section, pg.Title, pg.Forum = "viewforum", fd.Name, fd
	pg.Canonical = fmt.Sprintf("%s/viewforum.php?f=%d", f.base, fd.ID)
	pg.Topics = fd.Topics[start:min(start+forumPerPage, len(fd.Topics))]
	pg.Count = fmt.Sprintf("%d topics", len(fd.Topics))
	pg.Pagination = startPagination(fmt.Sprintf("viewforum.php?f=%d", fd.ID), start, len(fd.Topics))
	if start > 0 {
		pg.Canonical += "&start=" + strconv.Itoa(start)
	}
	f.render(w, pg, http.StatusOK)
}

func (f *forum) viewTopic(w http.ResponseWriter, pg *forumPage, t *forumTopic, start int) {
	if start < 0 || start%forumPerPage != 0 || start > 0 && start >= len(t.Posts) {
		f.message(w, pg, http.StatusNotFound, "Information", "The requested topic does not exist.")
		return
	}
	pg.Section, pg.Title, pg.Forum, pg.Topic = "viewtopic", t.Title, t.Forum, t
	pg.Canonical = fmt.Sprintf("%s/viewtopic.php?t=%d", f.base, t.ID)
	if start > 0 {
		pg.Canonical += "&start=" + strconv.Itoa(start)
	}
	pg.Posts = t.Posts[start:min(start+forumPerPage, len(t.Posts))]
	pg.Count = fmt.Sprintf("%d posts", len(t.Posts))
	pg.Pagination = startPagination(fmt.Sprintf("viewtopic.php?t=%d", t.ID), start, len(t.Posts))
	f.render(w, pg, http.StatusOK)
}

// startPagination is phpBB's pagination over start= offsets; nil when
// everything fits on one page.
func startPagination(script string, start, total int) *pagination {
	if total <= forumPerPage {
		return nil
	}
	url := func(k int) string {
		if k == 1 {
			return script
		}
		return fmt.Sprintf("%s&start=%d", script, (k-1)*forumPerPage)
	}
	return paginate(start/forumPerPage+1, (total+forumPerPage-1)/forumPerPage, url)
}

func (f *forum) message(w http.ResponseWriter, pg *forumPage, status int, heading, msg string) {
	pg.Section, pg.Title, pg.Heading, pg.Message = "message", heading, heading, msg
	f.render(w, pg, status)
}

func (f *forum) render(w http.ResponseWriter, pg *forumPage, status int) {
	renderTemplate(w, forumTemplates, "layout", pg, status)
}

// sessionID is a 32-hex-digit id derived from the request, so that each
// page hands out its own (as phpBB does for every cookieless visit) while
// the site stays deterministic.
func sessionID(uri string) string {
	a, b := fnv.New64(), fnv.New64a()
	a.Write([]byte(uri))
	b.Write([]byte(uri))
	return fmt.Sprintf("%016x%016x", a.Sum64(), b.Sum64())
}
