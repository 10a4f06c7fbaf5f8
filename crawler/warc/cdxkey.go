package warc

import (
	"regexp"
	"sort"
	"strings"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// The CDXJ key must be the one warcio.js 2.4.11 (cdx-index) computes, so that
// pywb and warcio.js tools find our records: warcio's SURT is its own small
// transform over a WHATWG URL parse, not the Heritrix/python "surt" library's.
// crawler/canon's SURT serves crawl scoping; this one serves index lookups only.

var wwwPrefix = regexp.MustCompile(`^(https?://)www\d*\.`)

// cdxKey returns warcio.js's getSurt(url): for http(s) URLs, drop a leading
// www/wwwN label, lower-case the whole URL, reverse the host labels joined by
// ',', add a non-default port, ')' and the path, then the query arguments
// sorted. Other URLs, and URLs that do not parse, are their own key.
func cdxKey(raw string) string {
	if !strings.HasPrefix(raw, "https:") && !strings.HasPrefix(raw, "http:") {
		return raw
	}
	u, err := whatwg.Parse(strings.ToLower(wwwPrefix.ReplaceAllString(raw, "$1")))
	if err != nil {
		return raw
	}
	labels := strings.Split(u.Hostname(), ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	key := strings.Join(labels, ",")
	if p := u.Port(); p != "" {
		key += ":" + p
	}
	key += ")" + u.Pathname()
	if s := u.Search(); s != "" {
		args := strings.Split(s[1:], "&")
		sort.Strings(args) // the query is ASCII after parsing, so this is JS's sort order
		key += "?" + strings.Join(args, "&")
	}
	return key
}
