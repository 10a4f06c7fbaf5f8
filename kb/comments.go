package kb

import (
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Comments are found by the evidence blog engines leave on each comment
// whatever the theme: an element id that numbers the comment
// ("comment-19", "div-comment-19", "li-comment-19", "comment_19", "c19"
// inside a comment list) and a reply link that names the comment it
// answers ("?replytocom=19", data-commentid). A comment's record is the
// largest element around its evidence that holds no other comment's: the
// comment body without the replies nested under it.

var commentIDRE = regexp.MustCompile(`(?i)^(?:(?:li|div|article)[-_])?comments?[-_]?(\d+)$`)

// commentNumber is the comment n names, "" when none.
func commentNumber(n *html.Node) string {
	if n.Type != html.ElementNode {
		return ""
	}
	if m := commentIDRE.FindStringSubmatch(attr(n, "id")); m != nil {
		return m[1]
	}
	if id := attr(n, "data-commentid"); id != "" && strings.Trim(id, "0123456789") == "" {
		return id
	}
	if n.DataAtom == atom.A {
		if i := strings.Index(attr(n, "href"), "replytocom="); i >= 0 {
			q, _, _ := strings.Cut(attr(n, "href")[i:], "#")
			if v, err := url.ParseQuery(q); err == nil {
				if id := v.Get("replytocom"); id != "" && strings.Trim(id, "0123456789") == "" {
					return id
				}
			}
		}
	}
	return ""
}

// commentRecords returns the records of the comments under n, in
// document order: for each comment number the largest element holding
// evidence of that number alone; nil when n holds no such evidence.
func commentRecords(n *html.Node) []*html.Node {
	var recs []*html.Node
	// num is the one comment number under n ("" for none, "*" for
	// several); the records are the elements of one number whose parent
	// has several or is the top.
	var num func(n *html.Node) string
	num = func(n *html.Node) string {
		own := commentNumber(n)
		var kids []*html.Node
		var kidNums []string
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || skipped(c) {
				continue
			}
			kids = append(kids, c)
			kidNums = append(kidNums, num(c))
		}
		all := own
		for _, k := range kidNums {
			switch {
			case k == "":
			case all == "":
				all = k
			case all != k:
				all = "*"
			}
		}
		if all == "*" {
			for i, k := range kidNums {
				if k != "" && k != "*" {
					recs = append(recs, kids[i])
				}
			}
		}
		return all
	}
	if top := num(n); top != "" && top != "*" {
		// One comment on the page: its record is the evidence's largest
		// element below a comment section, else the evidence's parent.
		for e := n; e != nil; {
			var next *html.Node
			for c := e.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && num(c) == top {
					next = c
				}
			}
			if next == nil {
				break
			}
			e = next
			if commentNumber(e) != "" || e.Parent != nil && isCommentSection(e.Parent) {
				recs = append(recs, e)
				break
			}
		}
	}
	// A record must hold some text; its order is the document's (the
	// walk appends parents' records after their children's).
	var out []*html.Node
	seen := map[*html.Node]bool{}
	for _, r := range recs {
		seen[r] = true
	}
	var order func(n *html.Node)
	order = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if seen[c] && len(strings.Fields(Text(c))) >= 2 {
				out = append(out, c)
			}
			order(c)
		}
	}
	order(n)
	return out
}
