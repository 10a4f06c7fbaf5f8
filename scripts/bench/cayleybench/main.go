// Command cayleybench compares mneme's store under Cayley (package
// cayley) with Cayley's own bolt backend: it loads the same N-Triples
// into both through Cayley's quad writer, timing each load, then runs the
// same Gizmo queries on both, interleaved (one run on each in turn), and
// prints a Markdown table of median times with the ratio. Both stores
// must give the same number of results for a query, or it stops.
//
// Usage: cayleybench -data lubm-univ8-seed0.nt.gz -dir WORKDIR [-runs 5]
//
// Each store's queries run as mneme serve runs them over a read-only
// store: in Gizmo sessions kept across queries (api.Sessions), all on the
// clock; -fresh builds a session per query instead, off the clock.
//
// With -cpuprofile it writes a CPU profile of the timed query runs (both
// stores; -match keeps the queries whose names match a regular
// expression), to see where a query's time goes.
package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	cgraph "github.com/cayleygraph/cayley/graph"
	_ "github.com/cayleygraph/cayley/graph/kv/bolt" // Cayley's bolt backend, the peer
	"github.com/cayleygraph/cayley/query"
	"github.com/cayleygraph/cayley/query/gizmo"
	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/nquads"

	"github.com/mneme-archive/mneme/cayley"
	"github.com/mneme-archive/mneme/cayley/api"
	"github.com/mneme-archive/mneme/graph"
)

const (
	rdfType = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
	ub      = "http://www.lehigh.edu/~zhp2/2004/0401/univ-bench.owl#"
)

// queries are Gizmo forms of LUBM questions: lookups from a constant,
// multi-hop traversals and whole-class scans.
var queries = []struct{ name, gizmo string }{
	{"empty (an unknown node): Gizmo's own cost", `g.V("<http://www.University0.edu/nothing>").All()`},
	{"Q1 graduate students taking a course", `g.V("<http://www.Department0.University0.edu/GraduateCourse0>").In("<ub:takesCourse>").Has("` + rdfType + `", "<ub:GraduateStudent>").All()`},
	{"Q3 publications of a professor", `g.V("<http://www.Department0.University0.edu/AssistantProfessor0>").In("<ub:publicationAuthor>").Has("` + rdfType + `", "<ub:Publication>").All()`},
	{"Q4 people of a department, names", `g.V("<http://www.Department0.University0.edu>").In("<ub:worksFor>").Tag("p").Out("<ub:name>").All()`},
	{"Q7 students of a professor's courses", `g.V("<http://www.Department0.University0.edu/AssociateProfessor0>").Out("<ub:teacherOf>").In("<ub:takesCourse>").All()`},
	{"advisors of a department's members", `g.V("<http://www.Department0.University0.edu>").In("<ub:memberOf>").Out("<ub:advisor>").All()`},
	{"Q14 undergraduates (count)", `g.emit(g.V().Has("` + rdfType + `", "<ub:UndergraduateStudent>").Count())`},
	{"graduate students' departments (count)", `g.emit(g.V().Has("` + rdfType + `", "<ub:GraduateStudent>").Out("<ub:memberOf>").Count())`},
}

func main() {
	data := flag.String("data", "", "N-Triples file (.gz allowed)")
	dir := flag.String("dir", "", "work directory (emptied)")
	runs := flag.Int("runs", 5, "timed runs per query and store")
	reuse := flag.Bool("reuse", false, "query the stores a previous run left in -dir, without loading")
	match := flag.String("match", "", "run only the queries whose names match this regular expression")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the query runs to this file")
	fresh := flag.Bool("fresh", false, "build a Gizmo session per query (off the clock) instead of keeping sessions across queries")
	flag.Parse()
	if *data == "" && !*reuse || *dir == "" {
		flag.Usage()
		os.Exit(2)
	}
	re, err := regexp.Compile(*match)
	if err != nil {
		log.Fatalf("-match: %v", err)
	}
	if err := run(*data, *dir, *runs, *reuse, re, *profile, *fresh); err != nil {
		log.Fatal(err)
	}
}

// readQuads reads the whole file: both loads then time the writers only.
func readQuads(path string) ([]quad.Quad, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 1<<20)
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(r); err != nil {
			return nil, err
		}
	}
	return quad.ReadAll(nquads.NewReader(r, false))
}

// load writes the quads through the store's Cayley quad writer.
func load(qs cgraph.QuadStore, quads []quad.Quad) (time.Duration, error) {
	start := time.Now()
	w, err := qs.NewQuadWriter()
	if err != nil {
		return 0, err
	}
	for i := 0; i < len(quads); i += 10000 {
		if _, err := w.WriteQuads(quads[i:min(i+10000, len(quads))]); err != nil {
			return 0, err
		}
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// runQuery runs one Gizmo query and counts its results. With sessions
// (not nil) it runs as mneme serve runs a query over a read-only store:
// in a Gizmo session kept from an earlier query over the same QuadStore
// (api.Sessions), all on the clock. Without, it builds a session of its
// own (a JavaScript runtime with Gizmo's environment), off the clock, and
// on mneme (ms not nil) takes its QuadStore from a Source on the clock.
func runQuery(qs cgraph.QuadStore, ms *cayley.Source, sessions *api.Sessions, text string) (int, time.Duration, error) {
	ctx := context.Background()
	n := 0
	count := func(v any) error {
		if c, ok := v.(int64); ok { // an emitted count
			n += int(c)
		} else {
			n++
		}
		return nil
	}
	if sessions != nil {
		start := time.Now()
		_, err := sessions.Run(ctx, "gizmo", text, 0, count)
		return n, time.Since(start), err
	}
	start := time.Now()
	if ms != nil {
		snap := ms.Snapshot()
		defer snap.Close()
		qs = snap
	}
	elapsed := time.Since(start)
	sess := gizmo.NewSession(qs)
	start = time.Now()
	it, err := sess.Execute(ctx, text, query.Options{Collation: query.JSON})
	if err != nil {
		return 0, 0, err
	}
	for it.Next(ctx) {
		count(it.Result())
	}
	err = it.Err()
	it.Close()
	return n, elapsed + time.Since(start), err
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

func run(data, dir string, runs int, reuse bool, match *regexp.Regexp, profile string, fresh bool) error {
	var quads []quad.Quad
	var mload, bload time.Duration
	if !reuse {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		var err error
		if quads, err = readQuads(data); err != nil {
			return err
		}
		log.Printf("read %d quads", len(quads))
		ws, err := graph.Open(filepath.Join(dir, "mneme"), graph.OpenOptions{})
		if err != nil {
			return err
		}
		mload, err = load(cayley.New(ws), quads)
		if err != nil {
			ws.Close()
			return fmt.Errorf("mneme load: %w", err)
		}
		log.Printf("mneme: loaded in %v", mload)
		if err := ws.Close(); err != nil {
			return err
		}
	}
	// Queried read-only, as mneme serve --store and mneme query open it.
	ms, err := graph.Open(filepath.Join(dir, "mneme"), graph.OpenOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer ms.Close()
	mqs := cayley.New(ms)
	src := cayley.NewSource(ms) // as mneme serve's Cayley API
	defer src.Close()

	bdir := filepath.Join(dir, "bolt")
	if !reuse {
		if err := cgraph.InitQuadStore("bolt", bdir, nil); err != nil {
			return err
		}
	}
	bqs, err := cgraph.NewQuadStore("bolt", bdir, nil)
	if err != nil {
		return err
	}
	defer bqs.Close()
	if !reuse {
		if bload, err = load(bqs, quads); err != nil {
			return fmt.Errorf("bolt load: %w", err)
		}
		log.Printf("bolt: loaded in %v", bload)
		quads = nil
	}

	stores := []cgraph.QuadStore{mqs, bqs}
	storeNames := []string{"mneme", "bolt"}
	var sessions []*api.Sessions
	if !fresh { // as mneme serve keeps them for a read-only store
		sessions = []*api.Sessions{api.NewSessions(src.Snapshot(), 1), api.NewSessions(bqs, 1)}
	}
	if !reuse {
		fmt.Printf("| load through Cayley's quad writer | mneme | bolt |\n|---|---|---|\n")
		fmt.Printf("| %d triples | %.1f s (%.0f k quads/s) | %.1f s (%.0f k quads/s) |\n\n",
			mustStats(mqs), mload.Seconds(), float64(mustStats(mqs))/mload.Seconds()/1000,
			bload.Seconds(), float64(mustStats(mqs))/bload.Seconds()/1000)
	}
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	fmt.Printf("| Gizmo query | results | mneme | bolt | bolt / mneme | above the empty query |\n|---|---|---|---|---|---|\n")
	var floor [2]time.Duration
	for qi, q := range queries {
		if qi > 0 && !match.MatchString(q.name) { // the empty query is the floor: always run
			continue
		}
		text := strings.ReplaceAll(q.gizmo, "<ub:", "<"+ub)
		times := make([][]time.Duration, len(stores))
		counts := make([]int, len(stores))
		for r := -1; r < runs; r++ { // run -1 warms up
			for i, s := range stores {
				var snapOf *cayley.Source
				if i == 0 {
					snapOf = src
				}
				var ss *api.Sessions
				if sessions != nil {
					ss = sessions[i]
				}
				var n int
				var d time.Duration
				// Labelled so that a profile tells the stores and the
				// queries apart (go tool pprof -tagfocus run=mneme/Q1).
				qlabel, _, _ := strings.Cut(q.name, " ")
				pprof.Do(context.Background(), pprof.Labels("run", storeNames[i]+"/"+qlabel), func(context.Context) {
					n, d, err = runQuery(s, snapOf, ss, text)
				})
				if err != nil {
					return fmt.Errorf("%s: %w", q.name, err)
				}
				if r >= 0 {
					times[i] = append(times[i], d)
				}
				counts[i] = n
			}
		}
		if counts[0] != counts[1] {
			return fmt.Errorf("%s: mneme %d results, bolt %d", q.name, counts[0], counts[1])
		}
		m, b := median(times[0]), median(times[1])
		above := "–"
		if floor[0] == 0 {
			floor = [2]time.Duration{m, b}
		} else if m > floor[0] && b > floor[1] {
			above = fmt.Sprintf("%.1f×", float64(b-floor[1])/float64(m-floor[0]))
		}
		fmt.Printf("| %s | %d | %v | %v | %.1f× | %s |\n", q.name, counts[0], m.Round(time.Microsecond), b.Round(time.Microsecond), float64(b)/float64(m), above)
	}
	return nil
}

func mustStats(qs cgraph.QuadStore) int64 {
	st, err := qs.Stats(context.Background(), false)
	if err != nil {
		log.Fatal(err)
	}
	return st.Quads.Value
}
