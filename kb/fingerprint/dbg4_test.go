package fingerprint

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mneme-archive/mneme/internal/shared"
	"github.com/mneme-archive/mneme/kb/litindex"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

func TestDbg4(t *testing.T) {
	if os.Getenv("DBG4") == "" {
		t.Skip()
	}
	s, err := Load(shared.Path(t, "data", "fingerprints", "webappanalyzer"))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := strconv.Atoi(os.Getenv("DBG4")); n >= 1 {
		s = s.Subset(n)
	}
	pages, _ := filepath.Glob(filepath.Join(shared.Path(t, "data", "aah-pages"), "pages", "*.html"))
	var docs []*vdoc.Doc
	var hits []*litindex.Hits
	for _, f := range pages {
		body, _ := os.ReadFile(f)
		d, _ := vdoc.New("https://example.org/", nil, body)
		lower, _ := d.Lower()
		docs = append(docs, d)
		hits = append(hits, s.body.Scan(lower))
	}
	runtime.LockOSThread()
	best := time.Duration(1 << 62)
	nfound := 0
	for range 15 {
		var ts unix.Timespec
		unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
		c0 := ts.Nano()
		nfound = 0
		for i, d := range docs {
			nfound += len(s.MatchScanned(d, hits[i]))
		}
		unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
		best = min(best, time.Duration(ts.Nano()-c0))
	}
	fmt.Println("MatchScanned per page (min of 15, thread CPU)", best/time.Duration(len(docs)), "found/page", float64(nfound)/float64(len(docs)))
}
