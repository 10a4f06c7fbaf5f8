package importer_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/social/importer"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var words = strings.Fields(`the river rose overnight and the bridge held while volunteers filled sandbags near
the old mill people shared photos of flooded streets asking for help with boats and dry clothes the mayor
said shelters are open at the school and the stadium trains are stopped between the two towns`)

// generate writes n tweets as twarc2 writes API v2 search pages, 100
// tweets a line with their authors in includes.users, drawn from a fixed
// seed: 20,000 authors, 500 hashtags, links to 5,000 pages.
func generate(tb testing.TB, path string, n int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC)
	type user struct {
		ID       string         `json:"id"`
		Username string         `json:"username"`
		Name     string         `json:"name"`
		Metrics  map[string]int `json:"public_metrics"`
	}
	for done := 0; done < n; {
		var data []map[string]any
		users := map[string]user{}
		for k := 0; k < 100 && done < n; k++ {
			u := rng.IntN(20000)
			uid := strconv.Itoa(1000 + u)
			users[uid] = user{ID: uid, Username: "user" + strconv.Itoa(u), Name: "User " + strconv.Itoa(u),
				Metrics: map[string]int{"followers_count": rng.IntN(100000), "following_count": rng.IntN(2000), "tweet_count": rng.IntN(50000)}}
			var text []string
			for range 12 + rng.IntN(20) {
				text = append(text, words[rng.IntN(len(words))])
			}
			tag := "tag" + strconv.Itoa(rng.IntN(500))
			link := fmt.Sprintf("https://news%d.example/story/%d", rng.IntN(50), rng.IntN(5000))
			text = append(text, "#"+tag, "https://t.co/x"+strconv.Itoa(done))
			t := map[string]any{
				"id":         strconv.Itoa(1_600_000_000_000_000_000 + done),
				"text":       strings.Join(text, " "),
				"created_at": base.Add(time.Duration(done) * 47 * time.Second).Format("2006-01-02T15:04:05.000Z"),
				"author_id":  uid,
				"lang":       "en",
				"entities": map[string]any{
					"hashtags": []map[string]any{{"start": 0, "end": 1, "tag": tag}},
					"urls":     []map[string]any{{"start": 0, "end": 1, "url": "https://t.co/x" + strconv.Itoa(done), "expanded_url": link}},
				},
				"public_metrics": map[string]int{"retweet_count": rng.IntN(100), "reply_count": rng.IntN(20), "like_count": rng.IntN(500), "quote_count": rng.IntN(5)},
			}
			if rng.IntN(5) == 0 && done > 0 {
				t["referenced_tweets"] = []map[string]string{{"type": "replied_to", "id": strconv.Itoa(1_600_000_000_000_000_000 + rng.IntN(done))}}
			}
			data = append(data, t)
			done++
		}
		var inc []user
		for _, u := range users {
			inc = append(inc, u)
		}
		line, _ := json.Marshal(map[string]any{"data": data, "includes": map[string]any{"users": inc},
			"meta": map[string]any{"result_count": len(data)}})
		w.Write(append(line, '\n'))
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

func dirSize(tb testing.TB, dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

// BenchmarkImport imports MNEME_IMPORT_TWEETS generated tweets (default
// 20,000) into WARC and RDF, once, and reports posts/s, the statements
// stored and the bytes a post in the store and in the WARC files
// (MNEME_IMPORT_PAGE sets the posts a page and MNEME_IMPORT_GROUP those
// a group, the importer's defaults otherwise):
//
//	MNEME_IMPORT_TWEETS=1000000 go test ./social/importer -run '^$' -bench Import -benchtime 1x
func BenchmarkImport(b *testing.B) {
	n := 20000
	if v, err := strconv.Atoi(os.Getenv("MNEME_IMPORT_TWEETS")); err == nil && v > 0 {
		n = v
	}
	page := 0 // the importer's default
	if v, err := strconv.Atoi(os.Getenv("MNEME_IMPORT_PAGE")); err == nil && v > 0 {
		page = v
	}
	group := 0
	if v, err := strconv.Atoi(os.Getenv("MNEME_IMPORT_GROUP")); err == nil && v > 0 {
		group = v
	}
	path := filepath.Join(b.TempDir(), "tweets.jsonl")
	generate(b, path, n)
	b.ResetTimer()
	for range b.N {
		start, cpu0 := time.Now(), testenv.CPUTime()
		st, l, status, closeStore := runImportWith(b, "bench", &importer.Importer{PagePosts: page, GroupPosts: group}, path)
		el, cpu := time.Since(start), testenv.CPUTime()-cpu0
		if status.Posts != int64(n) {
			b.Fatalf("%d posts imported, want %d", status.Posts, n)
		}
		stats, err := st.Stats()
		if err != nil {
			b.Fatal(err)
		}
		closeStore()
		b.ReportMetric(float64(stats.Quads)/float64(n), "quads/post")
		b.ReportMetric(float64(n)/el.Seconds(), "posts/s")
		b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-µs/post")
		b.ReportMetric(float64(dirSize(b, l.Store()))/float64(n), "store-B/post")
		b.ReportMetric(float64(dirSize(b, l.WARCs("bench")))/float64(n), "warc-B/post")
	}
}
