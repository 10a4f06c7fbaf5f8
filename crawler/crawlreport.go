package crawler

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/crawllog"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// CrawlReport is a crawl's end-of-crawl report in the manner of Heritrix's
// (seeds, hosts, status codes and MIME types reports), computed from its
// crawl.log over all its runs.
type CrawlReport struct {
	Status    Status
	URLs      int64 // crawl.log lines
	Bytes     int64
	Seeds     []SeedReport
	Hosts     []Tally // by URLs, most first
	Codes     []Tally // by status code
	MimeTypes []Tally // by URLs, most first
}

// SeedReport is a seed's fate: its last crawl.log line, or none.
type SeedReport struct {
	URL    string
	Status int    // 0: never fetched
	Fate   string // in words
}

// Tally counts the URLs and bytes of one host, status code or MIME type.
type Tally struct {
	Key   string
	URLs  int64
	Bytes int64
}

// reportFile is the name of a crawl's report file, in its folder.
const reportFile = "report.txt"

// Report is the crawl's report file, written when a run ends.
func (l Layout) Report(id string) string { return filepath.Join(l.Crawl(id), reportFile) }

// ReadCrawlReport computes the report of crawl id of data folder data from
// its state, spec and crawl.log. Its memory grows with the hosts crawled,
// not the URLs.
func ReadCrawlReport(data, id string) (*CrawlReport, error) {
	l := Layout{Data: data}
	st, err := ReadStatus(data, id)
	if err != nil {
		return nil, err
	}
	s, err := spec.Load(l.Spec(id))
	if err != nil {
		return nil, err
	}
	r := &CrawlReport{Status: st}
	cn := canon.New(canon.Options{})
	seedAt := map[string]int{}
	robotsFail := map[string]string{} // seed → its robots.txt's failure
	for i, raw := range s.Seeds {
		r.Seeds = append(r.Seeds, SeedReport{URL: raw, Fate: "not fetched"})
		seedAt[raw] = i
		if u, err := cn.Parse(raw); err == nil {
			seedAt[u.Canonical], seedAt[u.Href] = i, i
		}
	}
	hosts, codes, mimes := map[string]*Tally{}, map[string]*Tally{}, map[string]*Tally{}
	add := func(m map[string]*Tally, key string, size int64) {
		t := m[key]
		if t == nil {
			t = &Tally{Key: key}
			m[key] = t
		}
		t.URLs++
		t.Bytes += max(size, 0)
	}
	f, err := os.Open(l.CrawlLog(id))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if f != nil {
		defer f.Close()
		lr := crawllog.NewReader(f, l.CrawlLog(id))
		for {
			e, err := lr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			r.URLs++
			r.Bytes += max(e.Size, 0)
			host := e.URI
			if u, err := url.Parse(e.URI); err == nil && u.Host != "" {
				host = u.Host
			}
			add(hosts, host, e.Size)
			add(codes, strconv.Itoa(e.Status), e.Size)
			mime := e.MimeType
			if mime == "" || mime == "-" {
				mime = "(none)"
			}
			add(mimes, mime, e.Size)
			if i, ok := seedAt[e.Via]; ok && strings.HasSuffix(e.HopPath, "P") && (e.Status < 0 || e.Status >= 500) {
				robotsFail[r.Seeds[i].URL] = "robots.txt " + statusWords(e.Status)
			}
			if i, ok := seedAt[e.URI]; ok && e.HopPath == "" {
				sr := &r.Seeds[i]
				sr.Status, sr.Fate = e.Status, statusWords(e.Status)
				if why, ok := robotsFail[sr.URL]; ok && e.Status < 0 {
					sr.Fate += " (" + why + ")"
				}
			}
		}
	}
	r.Hosts, r.Codes, r.MimeTypes = sorted(hosts), sorted(codes), sorted(mimes)
	slices.SortFunc(r.Codes, func(a, b Tally) int {
		x, _ := strconv.Atoi(a.Key)
		y, _ := strconv.Atoi(b.Key)
		return cmp.Compare(x, y)
	})
	return r, nil
}

func sorted(m map[string]*Tally) []Tally {
	out := make([]Tally, 0, len(m))
	for _, t := range m {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b Tally) int {
		if c := cmp.Compare(b.URLs, a.URLs); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	})
	return out
}

// statusWords names a crawl.log status: "200 OK", "-2 connect failed".
func statusWords(status int) string {
	if status > 0 {
		return strconv.Itoa(status) + " " + http.StatusText(status)
	}
	if n, ok := statusNames[status]; ok {
		return strconv.Itoa(status) + " " + n
	}
	return strconv.Itoa(status)
}

// WriteText writes the report as text, at most rows lines per table (0:
// all), saying how many more the file has.
func (r *CrawlReport) WriteText(w io.Writer, rows int) error {
	var b strings.Builder
	st := r.Status
	fmt.Fprintf(&b, "Crawl %s: %s", st.ID, st.State)
	if why := strings.TrimPrefix(st.Reason, st.State+": "); why != "" && why != st.State {
		fmt.Fprintf(&b, " (%s)", why)
	}
	fmt.Fprintf(&b, "\nStarted %s, ran %s; %d URLs, %d bytes\n", st.Started.UTC().Format("2006-01-02 15:04:05Z"), st.Elapsed.Round(1e6), r.URLs, r.Bytes)
	b.WriteString("\nSeeds\n")
	for _, s := range r.Seeds {
		fmt.Fprintf(&b, "  %s  %s\n", s.URL, s.Fate)
	}
	table := func(title, head string, ts []Tally) {
		fmt.Fprintf(&b, "\n%s\n  %8s %12s  %s\n", title, "URLs", "bytes", head)
		for i, t := range ts {
			if rows > 0 && i == rows {
				fmt.Fprintf(&b, "  … %d more in %s\n", len(ts)-rows, reportFile)
				break
			}
			key := t.Key
			if head == "code" {
				n, _ := strconv.Atoi(t.Key)
				key = statusWords(n)
			}
			fmt.Fprintf(&b, "  %8d %12d  %s\n", t.URLs, t.Bytes, key)
		}
	}
	table("Status codes", "code", r.Codes)
	table("Hosts", "host", r.Hosts)
	table("MIME types", "type", r.MimeTypes)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeReport writes the crawl's report file.
func (c *Crawl) writeReport() error {
	r, err := ReadCrawlReport(c.layout.Data, c.id)
	if err != nil {
		return fmt.Errorf("crawl report: %w", err)
	}
	var b strings.Builder
	r.WriteText(&b, 0)
	return os.WriteFile(c.layout.Report(c.id), []byte(b.String()), 0o644)
}
