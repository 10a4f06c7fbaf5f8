package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/internal/sitetest"
)

// TestCrawlStatusHeld asks mneme crawl status about an incremental crawl
// running in mneme serve, which holds its frontier: the report comes from
// the server's control API, live, as text and as JSON; without the
// server's note the command says why it cannot read the frontier.
func TestCrawlStatusHeld(t *testing.T) {
	const pages = 4
	site := sitetest.Serve(t, sitetest.Options{Pages: pages})
	data := t.TempDir()
	endpoint := startServe(t, "", "--data", data)
	tok, err := os.ReadFile(filepath.Join(data, "token"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := &api.Client{Base: strings.TrimSuffix(endpoint, "/sparql"), Token: strings.TrimSpace(string(tok))}
	// Waits of a day: once every page is visited, all wait and the crawl
	// keeps running.
	spec := fmt.Sprintf(`id: inc
robots: ignore
politeness: {off: true}
seeds: [%s]
incremental:
  waits: [{initial: 24h, min: 24h, max: 48h, default: 24h, changed-factor: 1.5, unchanged-factor: 1.5}]
`, site.URL("/p/0"))
	if _, err := c.Create(ctx, []byte(spec)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, "inc", "start"); err != nil {
		t.Fatal(err)
	}
	var s api.Status
	for range 1000 {
		if s, err = c.Status(ctx, "inc"); err != nil {
			t.Fatal(err)
		}
		if s.Waiting == pages {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if s.State != "running" || s.Waiting != pages {
		t.Fatalf("crawl status by the API: %+v, want running with %d URLs waiting", s, pages)
	}

	code, out, errOut := mneme(t, "", "crawl", "status", "--data", data, "--queues", "inc")
	if code != 0 || !strings.Contains(errOut, "held by another mneme process") || !strings.Contains(errOut, c.Base) {
		t.Fatalf("crawl status of a held crawl: exit %d, stderr %q", code, errOut)
	}
	host := site.Host()
	row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(host) + `\s+snoozed\s+0\s+4\s+0\s+\S+Z\s+\S+Z\s+-$`)
	if !strings.HasPrefix(out, "crawl inc: running, started ") || !strings.Contains(out, "URLs: 0 queued, 4 waiting for a revisit, 0 in flight, 4 visits succeeded") ||
		!row.MatchString(out) || strings.Contains(out, "HEADER TRUST") {
		t.Errorf("crawl status --queues of a held crawl:\n%s", out)
	}

	code, out, _ = mneme(t, "", "crawl", "status", "--data", data, "--queues", "--json", "inc")
	var r crawler.Report
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil {
		t.Fatalf("crawl status --json: exit %d, %v:\n%s", code, err, out)
	}
	if r.Status.State != "running" || !r.Status.Incremental || r.Totals.Waiting != pages || len(r.Queues) != 1 ||
		r.Queues[0].Key != host || r.Queues[0].Waiting != pages || r.Queues[0].NextDue.IsZero() {
		t.Errorf("crawl status --json of a held crawl: %+v", r)
	}

	// A crawl that does not exist is not asked about.
	if code, _, errOut := mneme(t, "", "crawl", "status", "--data", data, "nosuch"); code != 1 || strings.Contains(errOut, "held by another mneme process") {
		t.Errorf("unknown crawl: exit %d, %q", code, errOut)
	}
	// Without the note, the frontier's lock is all there is to say.
	if err := os.Remove(filepath.Join(crawler.Layout{Data: data}.Store(), servedURLFile)); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := mneme(t, "", "crawl", "status", "--data", data, "inc"); code != 1 || !strings.Contains(errOut, "control API") {
		t.Errorf("held crawl without a note: exit %d, %q", code, errOut)
	}
}
