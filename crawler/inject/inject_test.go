package inject

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/canon"
)

func TestParse(t *testing.T) {
	c := canon.New(canon.Options{})
	items, err := Parse([]byte(`[{"url": "http://example.org/a#frag", "score": 0.3}, {"url": "HTTPS://Example.org/b", "blacklisted": true}, {"url": "http://example.org/c"}]`), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 {
		t.Fatalf("%d items", len(items))
	}
	if it := items[0]; it.URL.Canonical != "http://example.org/a" || it.Score != 0.3 || !it.HasScore || it.Blacklisted {
		t.Errorf("item 1: %+v", it)
	}
	if it := items[1]; it.URL.Href != "https://example.org/b" || !it.Blacklisted || it.HasScore {
		t.Errorf("item 2: %+v", it)
	}
	if it := items[2]; it.HasScore || it.Blacklisted {
		t.Errorf("item 3: %+v", it)
	}
}

func TestParseErrors(t *testing.T) {
	c := canon.New(canon.Options{})
	for _, tc := range []struct{ body, want string }{
		{``, "empty body"},
		{`null`, "got null"},
		{`{"url": "http://a/"}`, "bad JSON at byte 1: a JSON array of {\"url\": …} objects expected, not object"},
		{`[{"url": "http://a/"},]`, "bad JSON at byte 23: invalid character ']'"},
		{`[{"url": "http://a/"}] [1]`, "data after the array"},
		{`[{"url": "http://a/", "scor": 1}]`, `unknown field "scor"`},
		{`[{"url": 7}]`, "field url must be string, not number"},
		{`[{"score": 0.5}]`, `item 1: "url" is required`},
		{`[{"url": "http://a/"}, {"url": "not a url"}]`, `item 2: url "not a url"`},
		{`[{"url": "ftp://a/"}]`, `item 1: url "ftp://a/": only http and https URLs can be crawled`},
		{`[{"url": "http://a/", "score": 1.5}]`, `item 1: url "http://a/": score 1.5 is outside [0, 1]`},
		{`[{"url": "http://a/", "score": -0.1}]`, `score -0.1 is outside [0, 1]`},
		{`[{"url": "http://a/", "score": 0.5, "blacklisted": true}]`, "a blacklisted URL takes no score"},
	} {
		_, err := Parse([]byte(tc.body), c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s): error %v, want one containing %q", tc.body, err, tc.want)
		}
	}
}

func TestLoadToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "token")
	tok, err := LoadToken(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || len(tok) != 64 {
		t.Errorf("token file mode %04o, token length %d", fi.Mode().Perm(), len(tok))
	}
	again, err := LoadToken(path)
	if err != nil || again != tok {
		t.Errorf("second load: %q, %v; want the same token", again, err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadToken(path); err == nil || !strings.Contains(err.Error(), "others may read it") {
		t.Errorf("world-readable token file: %v", err)
	}
}
