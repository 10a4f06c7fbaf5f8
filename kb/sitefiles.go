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
// own host or a host of its registered domain.
func (s *SiteFiles) Holds(doc *vdoc.Doc, lowerMarkup []byte) bool {
	if doc.URL == nil || !bytes.Contains(lowerMarkup, []byte(s.Path)) {
		return false
	}
	own := registeredDomain(doc.URL.Hostname())
	base := doc.Base
	if base == nil {
		base = doc.URL
	}
	for _, it := range s.Pattern.Select(doc.Root) {
		for _, a := range it.Node.Attr {
			for _, v := range strings.Fields(a.Val) { // srcset: URLs and widths
				if !strings.Contains(v, s.Path) {
					continue
				}
				if u, err := base.Parse(v); err == nil && (u.Scheme == "http" || u.Scheme == "https") &&
					(u.Host == doc.URL.Host || own != "" && registeredDomain(u.Hostname()) == own) {
					return true
				}
			}
		}
	}
	return false
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
