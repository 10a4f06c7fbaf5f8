package warc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/warc/warctest"
)

// smallWARC writes a file with one record of every kind and returns its path.
func smallWARC(t *testing.T, dir string) string {
	t.Helper()
	w := newTestWriter(t, dir, 0)
	c := mustWrite(t, w, Exchange{URL: "http://example.com/", Date: fetchTime, IP: "127.0.0.1",
		Request: request("http://example.com/"), Response: response("200 OK", "text/html", "<p>hello</p>"),
		Metadata: &Metadata{Via: "http://example.com/seed", Outlinks: []Outlink{{URL: "http://example.com/a", Hop: "L"}}}})
	if c.Metadata.File != c.Response.File || c.Metadata.Offset != c.Request.Offset+c.Request.Length {
		t.Errorf("metadata not written right after the request: %+v", c)
	}
	if _, err := w.WriteRevisit(Revisit{Profile: IdenticalPayloadDigest, URL: "http://example.com/copy",
		Response: response("200 OK", "text/html", "<p>hello</p>"), RefersToURI: "http://example.com/", RefersToDate: fetchTime}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return warcFiles(t, dir)[0]
}

// TestRepairAtEveryOffset cuts a file at every byte offset, as a crash could,
// and checks that Repair leaves exactly the complete captures before the cut:
// warcinfo | response request metadata | revisit.
func TestRepairAtEveryOffset(t *testing.T) {
	src := smallWARC(t, t.TempDir())
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 5 {
		t.Fatalf("%d records, want 5", len(recs))
	}
	dir := t.TempDir()
	cutFile := filepath.Join(dir, filepath.Base(src)+openSuffix)
	toVerify := map[int]string{} // one repaired file per surviving record count
	groupEnds := []int{1, 4, 5}  // records kept when a capture is whole
	for cut := 0; cut <= len(orig); cut++ {
		keep, kept := 0, 0
		for _, n := range groupEnds {
			if end := int(recs[n-1].Offset + recs[n-1].Length); end <= cut {
				keep, kept = end, n
			}
		}
		if err := os.WriteFile(cutFile, orig[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Repair(cutFile)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		got, err := os.ReadFile(cutFile)
		if err != nil {
			t.Fatal(err)
		}
		if res.Records != kept || !bytes.Equal(got, orig[:keep]) || res.Cut != int64(cut-keep) || (res.Reason == nil) != (cut == keep) {
			t.Fatalf("cut at %d: repaired to %d bytes, %+v; want %d bytes, %d records", cut, len(got), res, keep, kept)
		}
		if _, seen := toVerify[kept]; !seen && kept > 0 {
			keepAs := filepath.Join(dir, fmt.Sprintf("%d", kept), filepath.Base(src))
			os.MkdirAll(filepath.Dir(keepAs), 0o755)
			os.WriteFile(keepAs, got, 0o644)
			toVerify[kept] = keepAs
		}
	}
	var paths []string
	for _, p := range toVerify {
		paths = append(paths, p)
	}
	if len(paths) != 3 {
		t.Fatalf("repairs kept %d distinct record counts, want 3", len(paths))
	}
	warctest.Check(t, paths...)
}

// TestReaderAndVerifierRejectTampering changes one byte of a block inside a
// recompressed member: both our reader and the independent verifier must say so.
func TestReaderAndVerifierRejectTampering(t *testing.T) {
	src := smallWARC(t, t.TempDir())
	orig, _ := os.ReadFile(src)
	recs, err := ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	resp := recs[1]
	zr, err := gzip.NewReader(bytes.NewReader(orig[resp.Offset : resp.Offset+resp.Length]))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Replace(plain, []byte("hello"), []byte("jello"), 1)
	var member bytes.Buffer
	zw := gzip.NewWriter(&member)
	zw.Write(tampered)
	zw.Close()
	bad := append(append(append([]byte{}, orig[:resp.Offset]...), member.Bytes()...), orig[resp.Offset+resp.Length:]...)
	badPath := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(badPath, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadFile(badPath)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("offset %d", resp.Offset)) {
		t.Errorf("reader error %v, want one naming offset %d", err, resp.Offset)
	}
	v := warctest.Verdicts(t, badPath)[0]
	if v.Valid || !strings.Contains(strings.Join(v.Errors, ";"), "WARC-Block-Digest") {
		t.Errorf("verifier verdict %+v, want a block digest error", v)
	}
	// Bytes lost in the middle of the file break the member chain for both too.
	gap := append(append([]byte{}, orig[:resp.Offset+10]...), orig[resp.Offset+20:]...)
	os.WriteFile(badPath, gap, 0o644)
	if _, err := ReadFile(badPath); err == nil {
		t.Error("reader accepted a file with bytes missing")
	}
	if v := warctest.Verdicts(t, badPath)[0]; v.Valid {
		t.Errorf("verifier accepted a file with bytes missing: %+v", v)
	}
}

// crashEnv names the directory the crash helper writes to.
const crashEnv = "MNEME_WARC_CRASH_DIR"

// TestMain turns the test binary into the crash helper when TestKillAndRecover
// runs it as a child process: it writes captures until it is killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv(crashEnv); dir != "" {
		os.Exit(crashHelper(dir))
	}
	os.Exit(m.Run())
}

func crashHelper(dir string) int {
	w, err := NewWriter(Config{Dir: dir, CrawlID: "crawl1", Info: Info{Hostname: "crawler.test"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	body := strings.Repeat("crash test payload, not very compressible? 7f3a9c ", 400)
	for i := 0; i < 100000; i++ {
		url := fmt.Sprintf("http://example.com/%d", i)
		ex := Exchange{URL: url, Request: request(url), Response: response("200 OK", "text/plain", fmt.Sprint(i)+body)}
		if _, err := w.WriteExchange(ex); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	fmt.Fprintln(os.Stderr, "the crash helper was never killed")
	return 2
}

// TestKillAndRecover kills a writing process with SIGKILL and checks that
// Recover leaves a valid, indexed file and a new writer carries on after it.
func TestKillAndRecover(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), crashEnv+"="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// Kill once the file has grown past a few hundred records. The deadline
	// only guards against a helper that never writes.
	deadline := time.Now().Add(60 * time.Second)
	for {
		m, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"+openSuffix))
		if len(m) == 1 {
			if st, err := os.Stat(m[0]); err == nil && st.Size() > 100<<10 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the helper wrote no file")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	res, err := Recover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Records < 10 || res[0].Removed {
		t.Fatalf("recovered %+v", res)
	}
	if _, err := os.Stat(IndexPath(res[0].Path)); err != nil {
		t.Errorf("no CDXJ after recovery: %v", err)
	}
	recs, err := ReadFile(res[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	// Every capture that survived is whole: response and request both.
	if n := len(recs) - 1; n%2 != 0 || recs[len(recs)-1].Type() != "request" {
		t.Errorf("%d records after the warcinfo, last is %s", n, recs[len(recs)-1].Type())
	}
	w := newTestWriter(t, dir, 0)
	c := mustWrite(t, w, Exchange{URL: "http://example.com/after", Response: response("200 OK", "", "after")})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Response.File, "-00001-") {
		t.Errorf("writer after recovery wrote %s, want serial 00001", c.Response.File)
	}
	warctest.Check(t, warcFiles(t, dir)...)
}

func TestRecoverRemovesEmptyAndIndexesUnindexed(t *testing.T) {
	dir := t.TempDir()
	src := smallWARC(t, dir)
	os.Remove(IndexPath(src)) // as if the crash came between rename and indexing
	empty := filepath.Join(dir, "MNEME-crawl1-20250101000000-00007-h.warc.gz"+openSuffix)
	orig, _ := os.ReadFile(src)
	os.WriteFile(empty, orig[:30], 0o644) // cut inside the warcinfo
	res, err := Recover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || !res[0].Removed {
		t.Errorf("recovered %+v, want the empty file removed", res)
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("empty open file still there: %v", err)
	}
	if _, err := os.Stat(IndexPath(src)); err != nil {
		t.Errorf("unindexed file got no CDXJ: %v", err)
	}
}
