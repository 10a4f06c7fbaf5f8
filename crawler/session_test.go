package crawler

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/spec"
)

// TestLoginHeadersCookies crawls a site that serves its pages only to a
// logged-in client sending an API key and a cookie: the crawl logs in,
// sends them, and no secret (the password, the key, the secret cookie,
// the session the login set) is anywhere in the data folder, the WARC
// files decompressed.
func TestLoginHeadersCookies(t *testing.T) {
	const password, apiKey, tracker, session = "pw-7f3a9c-secret", "key-51d0e2-secret", "trk-a8b4c1-secret", "sess-93be07-secret"
	t.Setenv("TEST_PASSWORD", password)
	t.Setenv("TEST_API_KEY", apiKey)
	t.Setenv("TEST_TRACKER", tracker)
	s := newSite(t, "", 7)
	logins := 0
	s.Lock()
	s.Override["/login"] = func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.PostFormValue("user") != "archivist" || r.PostFormValue("pass") != password {
			http.Error(w, "bad login", http.StatusForbidden)
			return
		}
		logins++
		http.SetCookie(w, &http.Cookie{Name: "sess", Value: session, Path: "/"})
		http.Redirect(w, r, "/p/0", http.StatusFound)
	}
	s.Unlock()
	refused := 0
	s.Wrap(func(guard http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/login" && r.URL.Path != "/robots.txt" {
				c1, _ := r.Cookie("sess")
				c2, _ := r.Cookie("trk")
				c3, _ := r.Cookie("lang")
				if r.Header.Get("X-Api-Key") != apiKey || r.Header.Get("Accept-Language") != "de" ||
					c1 == nil || c1.Value != session || c2 == nil || c2.Value != tracker || c3 == nil || c3.Value != "de" {
					refused++
					http.Error(w, "log in first", http.StatusForbidden)
					return
				}
			}
			guard.ServeHTTP(w, r)
		})
	})
	sp := testSpec(t, s.URL("/p/0"))
	sp.Politeness.Off = true
	sp.HTTP = spec.HTTP{
		Headers:       map[string]string{"Accept-Language": "de"},
		SecretHeaders: map[string]string{"X-Api-Key": "TEST_API_KEY"},
		Cookies: []spec.Cookie{{Name: "lang", Value: "de", Host: "127.0.0.1"},
			{Name: "trk", Secret: "TEST_TRACKER", Host: "127.0.0.1"}},
		Login: &spec.Login{URL: s.URL("/login"), Fields: map[string]string{"user": "archivist"},
			SecretFields: map[string]string{"pass": "TEST_PASSWORD"}},
	}
	crawl(t, sp, Deps{})
	if logins != 1 || refused != 0 {
		t.Errorf("%d logins, %d requests refused; want 1 and none", logins, refused)
	}
	got := 0
	for _, e := range readLog(t, sp.Output, "test") {
		if e.Status == 200 {
			got++
		}
	}
	if got != 8 { // seven pages and the logo
		t.Errorf("%d pages fetched, want 8", got)
	}
	verifyWARCs(t, sp.Output, "test")
	var requests bytes.Buffer
	err := filepath.WalkDir(sp.Output, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				return err
			}
			if b, err = io.ReadAll(zr); err != nil {
				return err
			}
			requests.Write(b)
		}
		for _, secret := range []string{password, apiKey, tracker, session} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds the secret %q", path, secret)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\r\nX-Api-Key: [secret]\r\n", "\r\nCookie: [secret]\r\n", "\r\nAccept-Language: de\r\n"} {
		if n := strings.Count(requests.String(), want); n < 8 {
			t.Errorf("%q in %d WARC request records, want every one", want, n)
		}
	}

	// A refused login stops the crawl before it fetches anything.
	t.Setenv("TEST_PASSWORD", "wrong")
	sp2 := testSpec(t, s.URL("/p/0"))
	sp2.Politeness.Off, sp2.HTTP, sp2.ID, sp2.Output = true, sp.HTTP, "refused", sp.Output
	st := openStore(t, t.TempDir())
	c, err := New(sp2, Deps{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "login "+s.URL("/login")+": HTTP 403 Forbidden") {
		t.Errorf("crawl with a refused login: %v", err)
	}
	if n := len(readLog(t, sp.Output, "refused")); n != 0 {
		t.Errorf("%d URLs fetched after a refused login", n)
	}
}
