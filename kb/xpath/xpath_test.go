package xpath

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestRequiredLiterals(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"//meta[@name='generator'][starts-with(@content, 'WordPress')]", []string{"name", "generator", "content", "WordPress"}},
		{"/http/header[@name='x-generator'][contains(., 'MediaWiki')]", []string{"x-generator", "MediaWiki"}},
		{"//a[contains(@href, 'x') or contains(@href, 'y')]", nil},
		{"//a[not(contains(@href, 'x'))]", nil},
		{"//a | //b[@id='z']", nil},
		{"//div[@id='a'][2]/span[text()='b'] and //p[contains(@class, \"c\")]", []string{"id", "a", "b", "class", "c"}},
		{"//li[position()=2][contains(@class, 'post')]", []string{"class", "post"}},
		{"//a[normalize-space(.)='a b']", nil},
		{"//a[contains(., 'Powered by')][@id='x']", []string{"id", "x"}},
		{"//a[@data-drupal-link-system-path]", []string{"data-drupal-link-system-path"}},
		{"//a[not(@rel)]", nil},
		{"/http/url[contains(., 'viewtopic.php')]", []string{"viewtopic.php"}},
		{"//script[contains(text(), 'vb_')]", []string{"vb_"}},
		{"//a['x']", nil},
		{"count(//a[@id='q']) = 0", nil},
	}
	for _, c := range cases {
		got, err := RequiredLiterals(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.src, got, c.want)
		}
	}
	for _, bad := range []string{"//a[", "//a[@x='y'", "//a[@x='y]", "//a[@x=]"} {
		if _, err := Compile(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestFragment evaluates the paper's XPath fragment: child and descendant
// steps, tags, @attr, *, text(), and predicates with contains(), =,
// position and last().
func TestFragment(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<html><body><div id="a" class="x y"><p>one</p><p>two</p><span>three</span></div><div id="b"><p>four</p></div></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ src, want string }{
		{"/html/body/div/p", "one|two|four"},
		{"//div[@id='a']/*", "one|two|three"},
		{"//div[contains(@class, 'y')]//p", "one|two"},
		{"//p[2]", "two"},
		{"//div[@id='a']/p[last()]", "two"},
		{"//div[@id='a']/p[position()=1]", "one"},
		{"//p[text()='four']", "four"},
		{"//div/@id", "a|b"},
		{"//span/text()", "three"},
	}
	for _, c := range cases {
		e, err := Compile(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		var got []string
		for _, it := range e.Select(doc) {
			got = append(got, it.Text())
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: got %q, want %q", c.src, strings.Join(got, "|"), c.want)
		}
		if !e.Match(doc) {
			t.Errorf("%s: Match false", c.src)
		}
	}
	e, _ := Compile("//p[contains(., 'nothing')]")
	if e.Match(doc) {
		t.Error("Match true for a pattern that selects nothing")
	}
}
