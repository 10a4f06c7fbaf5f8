package kb

import (
	"bytes"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// SiteFiles is one path part of Type.SiteFiles.
type SiteFiles struct {
	Path string // e.g. "/wp-content/uploads/"
	// Pattern finds the elements whose links or sources hold Path, on
	// any host; Holds then keeps those on the page's own site. It is
	// what Detection.Pattern names when this evidence decided.
	Pattern *Pattern
}

// siteFileAttrs are the attributes a link or an asset is named by.
var siteFileAttrs = []string{"href", "src", "content", "data-src", "srcset", "poster"}

func siteFiles(path string, line int) *SiteFiles {
	var or []string
	for _, a := range siteFileAttrs {
		or = append(or, "contains(@"+a+", '"+path+"')")
	}
	p := mustPattern("//*[" + strings.Join(or, " or ") + "]")
	p.Line = line
	return &SiteFiles{Path: path, Pattern: p}
}

// Holds reports whether doc links to or embeds a file under s.Path on its
// own site: a host of its registered domain, or an image proxy's URL
// whose path names such a host (Jetpack's i0.wp.com/example.org/…). The
// URLs are those of elements' attributes and those written in scripts'
// text, embedded JSON's escaped slashes too (a theme's settings, JSON-LD).
func (s *SiteFiles) Holds(doc *vdoc.Doc, lowerMarkup []byte) bool {
	if doc.URL == nil || !bytes.Contains(lowerMarkup, []byte(s.Path)) && !bytes.Contains(lowerMarkup, []byte(escapeSlashes(s.Path))) {
		return false
	}
	own := registeredDomain(doc.URL.Hostname())
	base := doc.Base
	if base == nil {
		base = doc.URL
	}
	ownFile := func(v string) bool {
		u, err := base.Parse(v)
		if err != nil || u.Scheme != "http" && u.Scheme != "https" {
			return false
		}
		if u.Host == doc.URL.Host || own != "" && registeredDomain(u.Hostname()) == own {
			return true
		}
		before, _, _ := strings.Cut(u.Path, s.Path)
		for _, seg := range strings.Split(before, "/") {
			if own != "" && strings.Contains(seg, ".") && registeredDomain(seg) == own {
				return true
			}
		}
		return false
	}
	for _, it := range s.Pattern.Select(doc.Root) {
		for _, a := range it.Node.Attr {
			for _, v := range strings.Fields(a.Val) { // srcset: URLs and widths
				if strings.Contains(v, s.Path) && ownFile(v) {
					return true
				}
			}
		}
	}
	for _, it := range scripts.Select(doc.Root) {
		if it.Node.FirstChild == nil {
			continue
		}
		text := strings.ReplaceAll(it.Node.FirstChild.Data, `\/`, "/")
		for _, v := range urlsWith(text, s.Path) {
			if ownFile(v) {
				return true
			}
		}
	}
	return false
}

// scripts selects the scripts whose text may name files: inline code and
// embedded JSON.
var scripts = mustPattern("//script[not(@src)]")

func escapeSlashes(path string) string { return strings.ReplaceAll(path, "/", `\/`) }

// urlsWith returns the absolute URLs in text that hold path: from the
// scheme (or "//") before each occurrence to the next quote or space.
func urlsWith(text, path string) []string {
	var out []string
	for off := 0; ; {
		i := strings.Index(text[off:], path)
		if i < 0 {
			return out
		}
		i += off
		off = i + len(path)
		start := strings.LastIndexAny(text[:i], "\"' \t\n<>()[]{},;")
		end := strings.IndexAny(text[off:], "\"' \t\n<>()[]{},;")
		if end < 0 {
			end = len(text) - off
		}
		if v := text[start+1 : off+end]; strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "//") {
			out = append(out, v)
		}
	}
}

// registeredDomain is host's public suffix plus one label, "" for an IP
// address or a host without one.
func registeredDomain(host string) string {
	d, err := publicsuffix.EffectiveTLDPlusOne(strings.ToLower(strings.TrimSuffix(host, ".")))
	if err != nil {
		return ""
	}
	return d
}
