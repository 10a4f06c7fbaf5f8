package synthweb

import (
	"fmt"
	"html"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// NewWiki returns the demo wiki served at b.Wiki: MediaWiki 1.41 markup
// (Vector) with a main page and 38 articles in categories, red links,
// talk and user pages, Special: pages (RecentChanges with limit and days
// variants, AllPages, WhatLinksHere, Contributions) and for every article
// its history, old revisions and diffs, each linking to the previous and
// next one: the history/diff chains that multiply a wiki's URLs. Its
// robots.txt forbids editing and printable views with wildcard rules.
func NewWiki(b Bases) http.Handler { return newWiki(b) }

// wikiPage is what the wiki's layout template renders.
type wikiPage struct {
	w         *wiki
	Title     string // the <title>
	Heading   template.HTML
	Key       string // page name in URLs
	NS        int    // namespace number
	Action    string
	Article   *wikiArticle // for the page tabs; nil on special pages
	BodyClass string
	Canonical string
	NoIndex   bool
	Sub       template.HTML
	Content   template.HTML
	Cats      []string
	LastMod   string
}

func (p *wikiPage) Bases() Bases     { return p.w.bases }
func (p *wikiPage) ReturnTo() string { return p.Key }

func (wk *wiki) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !readOnly(w, r) {
		return
	}
	p := r.URL.Path
	switch {
	case p == "/robots.txt":
		writeText(w, "text/plain; charset=utf-8", "User-agent: *\nDisallow: /w/index.php?*action=edit\nDisallow: /wiki/Special:Search\nDisallow: /*printable=yes\n")
	case p == "/":
		http.Redirect(w, r, wk.base+"/wiki/Main_Page", http.StatusMovedPermanently)
	case p == "/favicon.ico" || p == "/w/load.php" || strings.HasPrefix(p, "/w/resources/") || strings.HasPrefix(p, "/w/skins/"):
		serveAsset(w, r)
	case strings.HasPrefix(p, "/wiki/"):
		wk.page(w, r, strings.TrimPrefix(p, "/wiki/"))
	case p == "/w/index.php":
		title := wikiKey(r.URL.Query().Get("title"))
		if title == "" {
			title = "Main_Page"
		}
		wk.page(w, r, title)
	default:
		wk.missing(w, strings.TrimPrefix(p, "/"))
	}
}

// page serves one title with the view the query asks for.
func (wk *wiki) page(w http.ResponseWriter, r *http.Request, key string) {
	q := r.URL.Query()
	if rest, ok := strings.CutPrefix(key, "Special:"); ok {
		wk.special(w, r, rest)
		return
	}
	if cat, ok := strings.CutPrefix(key, "Category:"); ok && wk.cats[strings.ReplaceAll(cat, "_", " ")] != nil {
		wk.category(w, strings.ReplaceAll(cat, "_", " "))
		return
	}
	if user, ok := strings.CutPrefix(key, "User:"); ok && slices.Contains(wk.editors, user) {
		pg := wk.newPage("User:"+user, "User:"+user, 2, "view")
		pg.Content = template.HTML(fmt.Sprintf(`<div class="mw-parser-output"><p>%s edits the valley wiki, mostly bird articles. See <a href="/wiki/Special:Contributions/%s" title="Special:Contributions/%s">their contributions</a>.</p></div>`, user, user, user))
		wk.render(w, pg, http.StatusOK)
		return
	}
	a := wk.articles[key]
	if a == nil {
		wk.missing(w, key)
		return
	}
	if q.Get("action") == "history" {
		wk.history(w, a, q.Get("limit"))
		return
	}
	switch q.Get("action") {
	case "edit":
		pg := wk.articlePage(a, a.Latest(), "edit")
		pg.Title, pg.Heading, pg.NoIndex = "Editing "+a.Title, template.HTML("Editing "+html.EscapeString(a.Title)), true
		pg.Content = template.HTML(`<div id="wikiPreview"></div><form id="editform" name="editform" method="post" action="/w/index.php?title=` + url.QueryEscape(a.Key) + `&amp;action=submit"><textarea name="wpTextbox1" id="wpTextbox1" rows="25" cols="80"></textarea><input type="submit" name="wpSave" value="Save page"/></form>`)
		wk.render(w, pg, http.StatusOK)
		return
	case "info":
		pg := wk.articlePage(a, a.Latest(), "info")
		pg.Title, pg.Heading, pg.NoIndex = "Information for \""+a.Title+"\"", template.HTML("Information for &quot;"+html.EscapeString(a.Title)+"&quot;"), true
		first, last := a.Revs[0], a.Latest()
		pg.Content = template.HTML(fmt.Sprintf(`<table class="wikitable mw-page-info"><tr><td>Display title</td><td>%s</td></tr><tr><td>Page length (in bytes)</td><td>%d</td></tr><tr><td>Page creator</td><td><a href="/wiki/User:%s" class="mw-userlink">%s</a></td></tr><tr><td>Date of page creation</td><td><a href="/w/index.php?title=%s&amp;oldid=%d">%s</a></td></tr><tr><td>Latest editor</td><td><a href="/wiki/User:%s" class="mw-userlink">%s</a></td></tr><tr><td>Total number of edits</td><td>%d</td></tr></table>`,
			html.EscapeString(a.Title), last.Size, first.User, first.User, url.QueryEscape(a.Key), first.ID, mwDate(first.Time), last.User, last.User, len(a.Revs)))
		wk.render(w, pg, http.StatusOK)
		return
	}
	if d := q.Get("diff"); d != "" {
		wk.diff(w, a, d, q.Get("oldid"))
		return
	}
	rev := a.Latest()
	if o := q.Get("oldid"); o != "" {
		id, _ := strconv.Atoi(o)
		rev = wk.revs[id]
		switch q.Get("direction") {
		case "prev":
			if rev != nil {
				rev = rev.prev()
			}
		case "next":
			if rev != nil {
				rev = rev.next()
			}
		}
		if rev == nil || rev.Article != a {
			wk.missingRevision(w, a, o)
			return
		}
	}
	pg := wk.articlePage(a, rev, "view")
	if rev != a.Latest() || q.Has("oldid") {
		pg.NoIndex = true
		pg.Sub = wk.revisionNav(rev)
	}
	wk.render(w, pg, http.StatusOK)
}

func (wk *wiki) newPage(title, key string, ns int, action string) *wikiPage {
	class := fmt.Sprintf("mediawiki ltr sitedir-ltr mw-hide-empty-elt ns-%d ns-subject page-%s rootpage-%s skin-vector action-%s skin-vector-legacy", ns, key, key, action)
	if ns < 0 {
		class = fmt.Sprintf("mediawiki ltr sitedir-ltr mw-hide-empty-elt ns--1 ns-special mw-special-%s page-%s rootpage-%s skin-vector action-view skin-vector-legacy", strings.TrimPrefix(key, "Special:"), strings.ReplaceAll(key, ":", "_"), strings.ReplaceAll(key, ":", "_"))
	}
	return &wikiPage{w: wk, Title: strings.ReplaceAll(title, "_", " "), Heading: template.HTML(html.EscapeString(strings.ReplaceAll(title, "_", " "))), Key: key, NS: ns, Action: action, BodyClass: class}
}

// articlePage renders revision rev of a.
func (wk *wiki) articlePage(a *wikiArticle, rev *wikiRev, action string) *wikiPage {
	pg := wk.newPage(a.Title, a.Key, 0, action)
	pg.Article, pg.Cats = a, a.Cats
	pg.Heading = template.HTML(`<span class="mw-page-title-main">` + html.EscapeString(a.Title) + `</span>`)
	pg.Canonical = wk.base + "/wiki/" + a.Key
	var b strings.Builder
	b.WriteString(`<div class="mw-parser-output">`)
	for _, bl := range a.Blocks[:rev.Blocks] {
		b.WriteString(string(bl))
		b.WriteByte('\n')
	}
	b.WriteString(`</div>`)
	pg.Content = template.HTML(b.String())
	pg.LastMod = rev.Time.Format("2 January 2006, at 15:04")
	return pg
}

// revisionNav is the "Revision as of" box above an old revision.
func (wk *wiki) revisionNav(rev *wikiRev) template.HTML {
	k := url.QueryEscape(rev.Article.Key)
	var b strings.Builder
	fmt.Fprintf(&b, `<div id="mw-revision-info">Revision as of %s by %s</div><div id="mw-revision-nav">`, mwDate(rev.Time), userLinks(rev.User))
	if rev.Parent != 0 {
		fmt.Fprintf(&b, `(<a href="/w/index.php?title=%s&amp;diff=prev&amp;oldid=%d" title="%s">diff</a>) <a href="/w/index.php?title=%s&amp;direction=prev&amp;oldid=%d" title="%s">← Previous revision</a>`, k, rev.ID, html.EscapeString(rev.Article.Title), k, rev.ID, html.EscapeString(rev.Article.Title))
	} else {
		b.WriteString(`(diff) ← Previous revision`)
	}
	fmt.Fprintf(&b, ` | <a href="/wiki/%s">Latest revision</a> (<a href="/w/index.php?title=%s&amp;diff=cur&amp;oldid=%d">diff</a>) | `, rev.Article.Key, k, rev.ID)
	if rev.next() != nil {
		fmt.Fprintf(&b, `(<a href="/w/index.php?title=%s&amp;diff=next&amp;oldid=%d">diff</a>) <a href="/w/index.php?title=%s&amp;direction=next&amp;oldid=%d">Newer revision →</a>`, k, rev.ID, k, rev.ID)
	} else {
		b.WriteString(`(diff) Newer revision →`)
	}
	b.WriteString(`</div>`)
	return template.HTML(b.String())
}

func userLinks(user string) string {
	return fmt.Sprintf(`<a href="/wiki/User:%s" class="mw-userlink" title="User:%s"><bdi>%s</bdi></a> <span class="mw-usertoollinks">(<a href="/wiki/User_talk:%s" class="mw-usertoollinks-talk new" title="User talk:%s (page does not exist)">talk</a> | <a href="/wiki/Special:Contributions/%s" class="mw-usertoollinks-contribs" title="Special:Contributions/%s">contribs</a>)</span>`,
		user, user, user, user, user, user, user)
}

// history lists an article's revisions, newest first, with limit variants.
func (wk *wiki) history(w http.ResponseWriter, a *wikiArticle, limit string) {
	pg := wk.newPage(a.Title, a.Key, 0, "history")
	pg.Article, pg.NoIndex = a, true
	pg.Title = a.Title + ": Revision history"
	pg.Heading = template.HTML(`<span class="mw-page-title-main">` + html.EscapeString(a.Title) + `</span>: Revision history`)
	k := url.QueryEscape(a.Key)
	var b strings.Builder
	b.WriteString(`<div class="mw-history-legend">View logs for this page (<a href="/wiki/Special:Log?page=` + k + `">view filter log</a>)</div>`)
	b.WriteString(`<div class="mw-pager-navigation-bar">View (newer 50 | older 50) (`)
	for i, l := range []int{20, 50, 100, 250, 500} {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, `<a href="/w/index.php?title=%s&amp;action=history&amp;limit=%d" class="mw-numlink">%d</a>`, k, l, l)
	}
	b.WriteString(`)</div><section id="pagehistory" class="mw-pager-body"><ul class="mw-contributions-list">`)
	latest := a.Latest()
	for i := len(a.Revs) - 1; i >= 0; i-- {
		rev := a.Revs[i]
		b.WriteString(`<li data-mw-revid="` + strconv.Itoa(rev.ID) + `"><span class="mw-history-histlinks mw-changeslist-links">`)
		if rev != latest {
			fmt.Fprintf(&b, `<span><a href="/w/index.php?title=%s&amp;diff=%d&amp;oldid=%d" class="mw-history-histlinks-current">cur</a></span>`, k, latest.ID, rev.ID)
		} else {
			b.WriteString(`<span>cur</span>`)
		}
		if rev.Parent != 0 {
			fmt.Fprintf(&b, `<span><a href="/w/index.php?title=%s&amp;diff=%d&amp;oldid=%d" class="mw-history-histlinks-previous">prev</a></span>`, k, rev.ID, rev.Parent)
		} else {
			b.WriteString(`<span>prev</span>`)
		}
		fmt.Fprintf(&b, `</span> <a href="/w/index.php?title=%s&amp;oldid=%d" class="mw-changeslist-date">%s</a> <span class="history-user">%s</span> <span class="history-size mw-diff-bytes">%d bytes</span> <span class="comment comment--without-parentheses">%s</span></li>`,
			k, rev.ID, mwDate(rev.Time), userLinks(rev.User), rev.Size, html.EscapeString(rev.Comment))
	}
	b.WriteString(`</ul></section>`)
	pg.Content = template.HTML(b.String())
	wk.render(w, pg, http.StatusOK)
}

// diff compares two revisions: diff=ID|prev|next|cur relative to oldid.
func (wk *wiki) diff(w http.ResponseWriter, a *wikiArticle, d, old string) {
	oldID, _ := strconv.Atoi(old)
	from, to := wk.revs[oldID], (*wikiRev)(nil)
	if old == "" {
		from = nil
	}
	switch d {
	case "prev":
		if from != nil {
			to, from = from, from.prev()
		}
	case "next":
		if from != nil {
			to = from.next()
		}
	case "cur":
		to = a.Latest()
	default:
		id, _ := strconv.Atoi(d)
		to = wk.revs[id]
		if old == "" && to != nil {
			from = to.prev()
		}
	}
	if to == nil || to.Article != a || from != nil && from.Article != a {
		wk.missingRevision(w, a, d)
		return
	}
	pg := wk.articlePage(a, to, "view")
	pg.Title = a.Title + ": Difference between revisions"
	pg.Heading = template.HTML(`<span class="mw-page-title-main">` + html.EscapeString(a.Title) + `</span>: Difference between revisions`)
	pg.NoIndex = true
	k := url.QueryEscape(a.Key)
	var b strings.Builder
	b.WriteString(`<table class="diff diff-type-table diff-contentalign-left diff-editfont-monospace" data-mw="interface"><colgroup><col class="diff-marker"/><col class="diff-content"/><col class="diff-marker"/><col class="diff-content"/></colgroup><tr class="diff-title">`)
	if from != nil {
		fmt.Fprintf(&b, `<td colspan="2" class="diff-otitle"><div id="mw-diff-otitle1"><strong><a href="/w/index.php?title=%s&amp;oldid=%d" title="%s">Revision as of %s</a></strong></div><div id="mw-diff-otitle2">%s</div><div id="mw-diff-otitle4">`, k, from.ID, html.EscapeString(a.Title), mwDate(from.Time), userLinks(from.User))
		if from.Parent != 0 {
			fmt.Fprintf(&b, `<a href="/w/index.php?title=%s&amp;diff=prev&amp;oldid=%d" title="%s" id="differences-prevlink">← Older edit</a>`, k, from.ID, html.EscapeString(a.Title))
		}
		b.WriteString(`</div></td>`)
	} else {
		b.WriteString(`<td colspan="2" class="diff-otitle diff-side-deleted"></td>`)
	}
	fmt.Fprintf(&b, `<td colspan="2" class="diff-ntitle"><div id="mw-diff-ntitle1"><strong><a href="/w/index.php?title=%s&amp;oldid=%d" title="%s">Revision as of %s</a></strong></div><div id="mw-diff-ntitle2">%s</div><div id="mw-diff-ntitle4">`, k, to.ID, html.EscapeString(a.Title), mwDate(to.Time), userLinks(to.User))
	if to.next() != nil {
		fmt.Fprintf(&b, `<a href="/w/index.php?title=%s&amp;diff=next&amp;oldid=%d" title="%s" id="differences-nextlink">Newer edit →</a>`, k, to.ID, html.EscapeString(a.Title))
	}
	b.WriteString(`</div></td></tr>`)
	lo := 0
	if from != nil {
		lo = from.Blocks
	}
	for _, bl := range a.Blocks[lo:to.Blocks] {
		fmt.Fprintf(&b, `<tr><td colspan="2" class="diff-empty diff-side-deleted"></td><td class="diff-marker" data-marker="+"></td><td class="diff-addedline diff-side-added"><div>%s</div></td></tr>`, html.EscapeString(string(bl)))
	}
	b.WriteString(`</table><hr class="diff-hr" id="mw-oldid"/><h2 class="diff-currentversion-title">Revision as of ` + mwDate(to.Time) + `</h2>`)
	b.WriteString(string(pg.Content))
	pg.Content = template.HTML(b.String())
	wk.render(w, pg, http.StatusOK)
}

func (wk *wiki) category(w http.ResponseWriter, name string) {
	key := "Category:" + wikiKey(name)
	pg := wk.newPage(key, key, 14, "view")
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="mw-parser-output"><p>Articles about %s of the Fenwick Valley.</p></div><div id="mw-pages"><h2>Pages in category "%s"</h2><p>The following %d pages are in this category.</p><div class="mw-content-ltr"><ul>`, html.EscapeString(strings.ToLower(name)), html.EscapeString(name), len(wk.cats[name]))
	for _, a := range wk.cats[name] {
		fmt.Fprintf(&b, `<li><a href="/wiki/%s" title="%s">%s</a></li>`, a.Key, html.EscapeString(a.Title), html.EscapeString(a.Title))
	}
	b.WriteString(`</ul></div></div>`)
	pg.Content = template.HTML(b.String())
	wk.render(w, pg, http.StatusOK)
}

// missing is MediaWiki's answer for a page that does not exist: 404 with
// an invitation to create it.
func (wk *wiki) missing(w http.ResponseWriter, key string) {
	pg := wk.newPage(key, key, 0, "view")
	pg.NoIndex = true
	pg.Content = template.HTML(`<div class="noarticletext mw-content-ltr"><p>There is currently no text in this page. You can <a href="/wiki/Special:Search/` + html.EscapeString(key) + `" title="Special:Search/` + html.EscapeString(key) + `">search for this page title</a> in other pages.</p></div>`)
	wk.render(w, pg, http.StatusNotFound)
}

func (wk *wiki) missingRevision(w http.ResponseWriter, a *wikiArticle, id string) {
	pg := wk.articlePage(a, a.Latest(), "view")
	pg.NoIndex = true
	pg.Title, pg.Heading = "Error", "Error"
	pg.Content = template.HTML(`<div class="mw-parser-output"><p>The revision #` + html.EscapeString(id) + ` of the page named "` + html.EscapeString(a.Title) + `" does not exist.</p></div>`)
	wk.render(w, pg, http.StatusNotFound)
}

func (wk *wiki) render(w http.ResponseWriter, pg *wikiPage, status int) {
	w.Header().Set("X-Generator", "MediaWiki 1.41.0")
	renderTemplate(w, wikiTemplates, "layout", pg, status)
}
