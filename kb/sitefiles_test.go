package kb

import (
	"testing"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// TestSiteFiles checks WordPress's evidence by the site's own uploads: a
// link or an asset under /wp-content/uploads/ names WordPress on a host of
// the page's registered domain (in an attribute, a script's text or an
// image proxy's path), and not on another site's.
func TestSiteFiles(t *testing.T) {
	det := NewDetector(builtinKB(t), nil)
	cases := []struct {
		page, body string
		want       string
	}{
		{"https://www.example.org/news/1", `<a href="https://media.example.org/wp-content/uploads/2021/10/rates.pdf">rates</a>`, "wordpress"},
		{"https://www.example.org/news/1", `<img srcset="https://cdn.example.org/wp-content/uploads/a-360.jpg 360w, x.jpg 720w">`, "wordpress"},
		{"https://www.example.org/news/1", `<img src="/wp-content/uploads/a.jpg">`, "wordpress"},
		{"https://www.example.org/news/1", `<a href="https://www.other.org/wp-content/uploads/rates.pdf">rates</a>`, ""},
		{"https://forum.example-forum.de/t/1", `<img src="https://example.de/wp-content/uploads/a.jpg">`, ""},
		{"https://www.example.org/news/1", `<p>upload it to /wp-content/uploads/ on your blog</p>`, ""},
		{"http://127.0.0.1:8080/a", `<img src="/wp-content/uploads/a.jpg">`, "wordpress"}, // its own host
		{"http://127.0.0.1:8080/a", `<img src="http://127.0.0.2/wp-content/uploads/a.jpg">`, ""},
		// Written in embedded JSON and scripts only.
		{"https://www.example.org/news/1", `<script type="application/ld+json">{"image":{"url":"https://www.example.org/wp-content/uploads/2020/01/a.jpg"}}</script>`, "wordpress"},
		{"https://www.example.org/news/1", `<script>var opts = {"logo":"https:\/\/static.example.org\/wp-content\/uploads\/logo.png"};</script>`, "wordpress"},
		{"https://www.example.org/news/1", `<script>cmp.init({policyUrl: 'https://www.other.es/wp-content/uploads/policy.pdf'});</script>`, ""},
		{"https://www.example.org/news/1", `<script>// see /wp-content/uploads/ on your blog</script>`, ""},
		// An image proxy naming the site's own host in its path.
		{"https://www.example.org/news/1", `<img src="https://i0.wp.com/www.example.org/wp-content/uploads/2020/01/a.jpg?resize=640">`, "wordpress"},
		{"https://www.example.org/news/1", `<img src="https://i0.wp.com/www.other.org/wp-content/uploads/2020/01/a.jpg">`, ""},
	}
	for _, c := range cases {
		doc, err := vdoc.New(c.page, nil, []byte("<html><body>"+c.body+"</body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		d := det.Detect(doc)
		if d.App() != c.want {
			t.Errorf("%s %s: detected %q, want %q", c.page, c.body, d.App(), c.want)
		}
		if c.want != "" && (d.Pattern == nil || d.Evidence.Confidence < MinConfidence) {
			t.Errorf("%s %s: pattern %v, evidence %+v", c.page, c.body, d.Pattern, d.Evidence)
		}
		if c.want != "" && !det.Possible(doc) {
			t.Errorf("%s %s: detected, but Possible says it cannot be", c.page, c.body)
		}
	}
}
