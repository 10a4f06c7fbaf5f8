package kb

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/mneme-archive/mneme/internal/synthweb"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// TestPossibleNeverMissesADetection checks Possible against Detect on the
// saved pages and on pages of a generated site of no application: a page
// Possible rules out from its literals is one Detect names nothing on, and
// it does rule pages out.
func TestPossibleNeverMissesADetection(t *testing.T) {
	det := NewDetector(builtinKB(t), nil)
	var ruledOut, detected int
	check := func(name, rawURL string, body []byte) bool {
		t.Helper()
		head, err := vdoc.Head(rawURL, nil, body)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := vdoc.New(rawURL, nil, body)
		if err != nil {
			t.Fatal(err)
		}
		possible, app := det.Possible(head), det.Detect(doc).App()
		if app != "" {
			detected++
		}
		if !possible {
			ruledOut++
			if app != "" {
				t.Errorf("%s: ruled out, but Detect names %s", name, app)
			}
		}
		return possible
	}
	dir, pages := loadLabels(t)
	for _, p := range pages {
		body, err := os.ReadFile(filepath.Join(dir, p.file))
		if err != nil {
			t.Fatal(err)
		}
		u := p.url
		if u == "" {
			u = "file:///" + p.file
		}
		check(p.file, u, body)
	}
	site := synthweb.NewBigSite(synthweb.BigOptions{Pages: 300})
	for i := range 300 {
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", site.Path(i), nil))
		if check(site.Path(i), "http://127.0.0.1"+site.Path(i), rec.Body.Bytes()) {
			t.Errorf("%s: generated page of no application not ruled out", site.Path(i))
		}
	}
	t.Logf("%d pages, %d detected by the KB, %d ruled out without parsing", len(pages)+300, detected, ruledOut)
	if detected == 0 {
		t.Error("no page detected: the check compared nothing")
	}
}

// TestPossibleShortLiterals checks a pattern without an indexable literal
// (XenForo's //html[@id='XF']): pages lacking its short literal are ruled
// out, a page holding it is not.
func TestPossibleShortLiterals(t *testing.T) {
	det := NewDetector(builtinKB(t), nil)
	for _, c := range []struct {
		body string
		want bool
	}{
		{`<html id="XF"><body>forum</body></html>`, true},
		{`<HTML ID="xF"><body>forum</body></html>`, true}, // case-blind, as on lower-cased markup
		{`<html><body>plain</body></html>`, false},
	} {
		head, err := vdoc.Head("http://127.0.0.1/", nil, []byte(c.body))
		if err != nil {
			t.Fatal(err)
		}
		if got := det.Possible(head); got != c.want {
			t.Errorf("Possible(%s) = %v, want %v", c.body, got, c.want)
		}
	}
}

// TestPossibleWithFingerprints: fingerprints match headers and cookies
// without literals, so no page is ruled out.
func TestPossibleWithFingerprints(t *testing.T) {
	det := NewDetector(builtinKB(t), loadFingerprints(t))
	head, err := vdoc.Head("http://127.0.0.1/", nil, []byte(`<html><body>plain</body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	if !det.Possible(head) {
		t.Error("Possible with fingerprints ruled a page out")
	}
}
