package record

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/social/socialtest"
)

const secret = "s3cr3t-T0ken/with+chars"

func TestRedactorURL(t *testing.T) {
	r := NewRedactor(secret)
	cases := []struct{ in, want string }{
		{"https://api.example/search?q=quake&access_token=abc", "https://api.example/search?access_token=REDACTED&q=quake"},
		{"https://u:pw@api.example/x", "https://api.example/x"},
		{"https://api.example/x?oauth_signature=zz&max_id=5", "https://api.example/x?max_id=5&oauth_signature=REDACTED"},
		{"https://api.example/2/tweets/search?next_token=abc", "https://api.example/2/tweets/search?next_token=abc"},
		{"https://api.example/p/" + url.PathEscape(secret), "https://api.example/p/REDACTED"},
		{"https://api.example/p?q=" + url.QueryEscape(secret), "https://api.example/p?q=REDACTED"},
	}
	for _, c := range cases {
		u, err := url.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.URL(u); got != c.want {
			t.Errorf("URL(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	h := http.Header{"Authorization": {"Bearer x"}, "Cookie": {"a=b"}, "X-Api-Key": {"k"}, "Accept": {"text/" + secret}, "X-Rate-Limit-Remaining": {"3"}}
	got := r.Header(h)
	if len(got) != 2 || got.Get("Accept") != "text/REDACTED" || got.Get("X-Rate-Limit-Remaining") != "3" {
		t.Errorf("Header = %v", got)
	}
}

// TestRecorderArchivesWithoutCredentials records exchanges with a server
// that demands a token, sets a cookie and echoes the token, and checks
// the WARC files with the independent verifier and for every form of the
// secret.
func TestRecorderArchivesWithoutCredentials(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Header.Get("Authorization") != "Bearer "+secret || req.URL.Query().Get("access_token") != secret {
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: "session", Value: secret})
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"echo":"`+secret+`","posts":[1,2,3]}`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	w, err := warc.NewWriter(warc.Config{Dir: dir, CrawlID: "rec-test"})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(nil, w, NewRedactor(secret))
	client := &http.Client{Transport: rec}
	for _, tok := range []string{secret, "wrong"} {
		req, _ := http.NewRequest("GET", srv.URL+"/api/search?q=quake&access_token="+url.QueryEscape(tok), nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		req.AddCookie(&http.Cookie{Name: "sid", Value: secret})
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if tok == secret && !bytes.Contains(body, []byte(secret)) {
			t.Errorf("the platform must get the body as sent, got %s", body)
		}
	}
	if _, err := rec.Resource("https://stream.example/x?token="+secret, "application/json", []byte(`{"t":"`+secret+`"}`)); err != nil {
		t.Fatal(err)
	}
	exs := rec.Take()
	if len(exs) != 2 || exs[0].Status != 200 || exs[1].Status != 401 || exs[0].RecordID == "" {
		t.Fatalf("exchanges: %+v", exs)
	}
	for _, ex := range exs {
		if strings.Contains(ex.URL, "access_token="+url.QueryEscape(secret)) || !strings.Contains(ex.URL, "access_token=REDACTED") {
			t.Errorf("exchange URL %s", ex.URL)
		}
		if !ex.Sent(srv.URL+"/api/search?q=quake&access_token="+url.QueryEscape(secret)) && ex.Status == 200 {
			t.Errorf("exchange %s does not match the URL it was sent to", ex.URL)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if len(files) != 1 {
		t.Fatalf("WARC files: %v", files)
	}
	warctest.Check(t, files...)
	socialtest.NoSecret(t, dir, secret)
}
