package kb

import (
	"errors"
	"strings"
	"testing"
)

// TestParseTypeErrors checks that each mistake in a KB file is reported
// with the file and the line (and column) where it is.
func TestParseTypeErrors(t *testing.T) {
	const good = `type: demo
name: Demo
category: forum
detect:
  - //meta[@name='generator'][starts-with(@content, 'Demo')]
levels:
  - name: thread
    kind: terminal
    detect:
      - //div[@id='posts']
    extract:
      - object: forum-post
        records: //div[@class='post']
        fields:
          content: .//div[@class='content']
`
	if _, err := ParseType("good.yaml", strings.NewReader(good)); err != nil {
		t.Fatalf("valid file rejected: %v", err)
	}
	cases := []struct{ name, from, to, want string }{
		{"bad xpath", "//div[@id='posts']", "//div[@id='posts'", `bad.yaml:10:26: invalid XPath: expected "]" at the end`},
		{"bad xpath quoted", "//div[@id='posts']", `"//div[@id='posts'}"`, `bad.yaml:10:27: invalid XPath: unexpected character "}"`},
		{"unknown key", "    kind: terminal", "    kind: terminal\n    colour: red", `bad.yaml:9: unknown key "colour"`},
		{"bad category", "category: forum", "category: shop", "bad.yaml:3:11: category \"shop\""},
		{"undefined target", "    extract:", "    navigate:\n      - select: //a/@href\n        target: nowhere\n    extract:", "bad.yaml:13:17: target level \"nowhere\" is not defined"},
		{"extract on intermediate", "kind: terminal", "kind: intermediate", "bad.yaml:8:11: intermediate level"},
		{"unknown field", "          content:", "          colour: .//b\n          content:", "bad.yaml:15:19: field \"colour\""},
		{"unknown object", "object: forum-post", "object: poem", "bad.yaml:12:17: object \"poem\""},
		{"missing detect", "detect:\n  - //meta[@name='generator'][starts-with(@content, 'Demo')]\n", "", "bad.yaml:1: missing \"detect\""},
	}
	for _, c := range cases {
		src := strings.Replace(good, c.from, c.to, 1)
		if src == good {
			t.Fatalf("%s: replacement did not apply", c.name)
		}
		_, err := ParseType("bad.yaml", strings.NewReader(src))
		var es Errors
		if !errors.As(err, &es) {
			t.Errorf("%s: got %v, want Errors", c.name, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got\n%v\nwant it to contain %q", c.name, err, c.want)
		}
	}
}

// TestBuiltin loads the shipped KB: every file passes the schema check
// and the required application types are there.
func TestBuiltin(t *testing.T) {
	k := builtinKB(t)
	for _, id := range []string{"wordpress", "mediawiki", "dokuwiki", "phpbb", "vbulletin", "xenforo", "discourse"} {
		if k.Type(id) == nil {
			t.Errorf("built-in KB lacks %s", id)
		}
	}
}
