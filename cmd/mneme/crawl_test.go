package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/internal/sitetest"
	"github.com/mneme-archive/mneme/internal/synthweb"
)

var summaryRE = regexp.MustCompile(`^crawl (\S+) (finished|stopped): (\d+) pages, (\d+) bytes, [0-9.]+ s, [0-9.]+ pages/s( \(\d+ pages in all runs\))?\n`)

// TestCrawlCommand crawls a local site and checks the one-line summary
// and the profile and trace it was asked for; resuming the finished crawl
// is refused.
func TestCrawlCommand(t *testing.T) {
	srv := sitetest.Serve(t, sitetest.Options{Pages: 40})
	data := t.TempDir()
	prof, tr := filepath.Join(t.TempDir(), "cpu.pprof"), filepath.Join(t.TempDir(), "crawl.trace")
	mem := filepath.Join(t.TempDir(), "mem.pprof")
	code, out, errOut := mneme(t, "", "crawl", "--data", data, "--id", "cli", "--politeness", "off",
		"--cpuprofile", prof, "--memprofile", mem, "--trace", tr, srv.URL("/p/0"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if b, err := os.ReadFile(prof); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("--cpuprofile wrote no gzipped profile: %d bytes, %v", len(b), err)
	}
	if b, err := os.ReadFile(mem); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("--memprofile wrote no gzipped profile: %d bytes, %v", len(b), err)
	}
	if !regexp.MustCompile(`(?m)^memory: live heap \d+ MB, Go runtime \d+ MB`).MatchString(errOut) {
		t.Errorf("--memprofile printed no memory figures:\n%s", errOut)
	}
	if b, err := os.ReadFile(tr); err != nil || !bytes.HasPrefix(b, []byte("go 1.")) {
		t.Errorf("--trace wrote no execution trace: %q…, %v", b[:min(len(b), 16)], err)
	}
	m := summaryRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("summary %q does not match %s", out, summaryRE)
	}
	// 40 pages and robots.txt (a 404).
	if m[1] != "cli" || m[2] != "finished" || m[3] != "41" {
		t.Errorf("summary %q: want crawl cli finished with 41 pages", out)
	}
	sites, report, _ := strings.Cut(out[len(m[0]):], "\n\n")
	if want := "  " + srv.URL("/") + ": no known application (40 pages, generic links)"; sites != want {
		t.Errorf("summary's sites %q, want %q", sites, want)
	}
	// The report: the seed's fate and the status codes (40 pages, robots.txt).
	for _, want := range []string{"Crawl cli: finished", "\n  " + srv.URL("/p/0") + "  200 OK\n", "\n        40 ", "  200 OK\n", "\n         1 ", "  404 Not Found\n", "(report in " + filepath.Join(data, "crawls", "cli", "report.txt") + ")"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	code, _, errOut = mneme(t, "", "crawl", "resume", "--data", data, "cli")
	if code != 1 || !strings.Contains(errOut, "already finished") {
		t.Errorf("resume of a finished crawl: exit %d, %q", code, errOut)
	}
	code, _, errOut = mneme(t, "", "crawl", "--data", data, "--id", "cli", "--politeness", "off", srv.URL("/p/0"))
	if code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second crawl with the same id: exit %d, %q", code, errOut)
	}
}

// TestCrawlAAH crawls the synthetic WordPress blog with the
// application-aware helper, which the summary names, and with --no-aah,
// which follows every link and names nothing.
func TestCrawlAAH(t *testing.T) {
	ln, err := synthweb.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	srv := synthweb.ServeOn(ln, synthweb.NewBlog(synthweb.Bases{Blog: base, Forum: "http://127.0.0.1:1", Wiki: "http://127.0.0.1:2"}))
	defer srv.Close()
	pages := map[bool]int{}
	for _, aah := range []bool{true, false} {
		args := []string{"crawl", "--data", t.TempDir(), "--politeness", "off", base + "/"}
		if !aah {
			args = append(args, "--no-aah")
		}
		code, out, errOut := mneme(t, "", args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		m := summaryRE.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("summary %q does not match %s", out, summaryRE)
		}
		pages[aah], _ = strconv.Atoi(m[3])
		sites, _, _ := strings.Cut(out[len(m[0]):], "\nCrawl ") // the report follows
		switch {
		case aah && !strings.HasPrefix(sites, "  "+base+"/: WordPress, "):
			t.Errorf("summary's sites %q: want %s/ named WordPress", sites, base)
		case aah && !strings.Contains(errOut, "aah: "+base+"/ is WordPress (blog)"):
			t.Errorf("log %q: no line on the detection", errOut)
		case !aah && sites != "":
			t.Errorf("--no-aah: summary's sites %q, want none", sites)
		}
	}
	t.Logf("pages fetched: %d with the helper, %d without", pages[true], pages[false])
	if pages[true] >= pages[false] {
		t.Errorf("the helper fetched %d pages, the generic crawler %d: want fewer", pages[true], pages[false])
	}
}

// TestCrawlPolitenessOffNeedsLoopback refuses --politeness off for a seed
// that is not on a loopback address, before anything is fetched.
func TestCrawlPolitenessOffNeedsLoopback(t *testing.T) {
	data := t.TempDir()
	code, _, errOut := mneme(t, "", "crawl", "--data", data, "--politeness", "off", "http://127.0.0.1:1/", "http://example.org/")
	if code != 1 || !strings.Contains(errOut, "politeness off is only allowed when every seed is on a loopback address; seeds[1] is on example.org") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = mneme(t, "", "crawl", "--data", data, "--politeness", "sometimes", "http://127.0.0.1:1/")
	if code != 2 {
		t.Errorf("--politeness sometimes: exit %d, want 2 (%q)", code, errOut)
	}
}

// TestCrawlInjectionAPI runs mneme crawl --api and injects a URL while the
// seed is being fetched: the injected URL is crawled, with the token read
// from DATA/token.
func TestCrawlInjectionAPI(t *testing.T) {
	injected := make(chan struct{})
	var mu sync.Mutex
	fetched := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fetched[r.URL.Path] = true
		mu.Unlock()
		if r.URL.Path == "/seed" {
			<-injected // the crawl cannot end before the injection
		}
		fmt.Fprint(w, "no links here")
	}))
	defer srv.Close()
	data := t.TempDir()
	pr, pw := io.Pipe()
	done := make(chan int)
	var out bytes.Buffer
	go func() {
		done <- run(context.Background(), []string{"crawl", "--data", data, "--id", "api", "--politeness", "off",
			"--api", "127.0.0.1:0", srv.URL + "/seed"}, strings.NewReader(""), &out, pw)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var api string
	for sc.Scan() {
		if m := regexp.MustCompile(`^injection API: (\S+) \(token in (\S+)\)$`).FindStringSubmatch(sc.Text()); m != nil {
			api = m[1]
			tok, err := os.ReadFile(m[2])
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest(http.MethodPost, api, strings.NewReader(`[{"url": "`+srv.URL+`/injected", "score": 0.9}]`))
			req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("injection: %d %s", resp.StatusCode, body)
			}
			close(injected)
			break
		}
	}
	go io.Copy(io.Discard, pr)
	if code := <-done; code != 0 || api == "" {
		t.Fatalf("exit %d, API %q", code, api)
	}
	mu.Lock()
	defer mu.Unlock()
	if !fetched["/injected"] {
		t.Errorf("the injected URL was not fetched (%v); summary %s", fetched, out.String())
	}
}

// TestCrawlAPILoopbackOnly refuses to serve the injection API elsewhere
// than on a loopback address.
func TestCrawlAPILoopbackOnly(t *testing.T) {
	code, _, errOut := mneme(t, "", "crawl", "--data", t.TempDir(), "--politeness", "off", "--api", "0.0.0.0:0", "http://127.0.0.1:1/")
	if code != 2 || !strings.Contains(errOut, "loopback addresses only") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestCrawlSeedsFail crawls a seed nobody listens on and one that is not
// found: each failure is reported as it happens, with the retry plan (the
// last one with the crawl's stop), and the crawl ends at once with exit 1,
// naming the seeds and their errors; the report says the same.
func TestCrawlSeedsFail(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String() + "/"
	ln.Close()
	srv := sitetest.Serve(t, sitetest.Options{Pages: 3})
	missing := srv.URL("/typo")
	data := t.TempDir()
	start := time.Now()
	code, out, errOut := mneme(t, "", "crawl", "--data", data, "--id", "bad", down, missing)
	took := time.Since(start)
	t.Logf("exit %d after %s\n%s%s", code, took.Round(time.Millisecond), errOut, out)
	if code != 1 || took > time.Minute {
		t.Errorf("exit %d after %s, want 1 within a minute", code, took)
	}
	for _, want := range []string{
		"seed " + down + " failed: robots.txt: ", "connection refused; ",
		"seed " + missing + " failed: HTTP 404 Not Found; ",
		"mneme: crawl bad: every seed failed (", down + ": robots.txt: ", missing + ": HTTP 404 Not Found",
		"'mneme crawl resume bad' tries the seeds again",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	// The seed that failed last says the crawl stops instead of planning
	// a retry that will not come; the other gave its own plan.
	if n := strings.Count(errOut, "; every seed failed, the crawl stops (resume it to try again)\n"); n != 1 {
		t.Errorf("%d seed lines say the crawl stops, want 1", n)
	}
	if !strings.Contains(errOut, "connection refused; retry 1 at ") && !strings.Contains(errOut, "HTTP 404 Not Found; not retried\n") {
		t.Error("the seed that failed first gave no retry plan")
	}
	code, list, errOut := mneme(t, "", "crawl", "list", "--data", data)
	row := regexp.MustCompile(`(?m)^bad\s+stopped \(every seed failed \(http://\S+…\)\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+0s\s+2\s+\d+ bytes\s+` + regexp.QuoteMeta(down+" "+missing) + `$`)
	if code != 0 || !row.MatchString(list) {
		t.Errorf("crawl list: exit %d, %s\n%s", code, errOut, list)
	}
	report, err := os.ReadFile(filepath.Join(data, "crawls", "bad", "report.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"  " + down + "  -61 robots.txt unreachable (robots.txt -2 connect failed)\n", "  " + missing + "  404 Not Found\n"} {
		if !strings.Contains(string(report), want) || !strings.Contains(out, want) {
			t.Errorf("report (file and stdout) lacks %q:\n%s", want, report)
		}
	}
}
