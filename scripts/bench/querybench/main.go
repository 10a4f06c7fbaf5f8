// Command querybench times SPARQL queries against an HTTP endpoint, the
// same way for every engine the query benchmark compares (mneme serve,
// Virtuoso): each query is sent once to warm up, then -runs more times
// over one kept-alive connection, timed from sending the request to the
// last byte of the answer. It prints one tab-separated line per query:
// name, rows (solutions or triples, counted by parsing the answer after
// timing), median and fastest warm time in milliseconds. With -answers
// DIR it saves each SELECT or ASK answer (SPARQL JSON) as DIR/NAME.json,
// for scripts/bench/answercheck.
//
// Usage: querybench -endpoint URL [-runs N] [-answers DIR] QUERY.rq...
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/turtle"
	"github.com/mneme-archive/mneme/sparql/parse"
	"github.com/mneme-archive/mneme/sparql/results"
)

func main() {
	endpoint := flag.String("endpoint", "", "SPARQL endpoint URL")
	runs := flag.Int("runs", 5, "timed runs per query after the warm-up")
	answers := flag.String("answers", "", "directory to save each query's answer in (NAME.json)")
	slow := flag.Duration("slow", 10*time.Second, "a query whose warm-up takes longer gets 2 timed runs")
	flag.Parse()
	if *endpoint == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: querybench -endpoint URL [-runs N] [-answers DIR] QUERY.rq...")
		os.Exit(2)
	}
	client := &http.Client{Timeout: 30 * time.Minute}
	failed := false
	for _, path := range flag.Args() {
		if err := bench(client, *endpoint, path, *runs, *slow, *answers); err != nil {
			fmt.Fprintf(os.Stderr, "querybench: %s: %v\n", path, err)
			fmt.Printf("%s\t-\t-\t-\n", name(path))
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

func name(path string) string { return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) }

func bench(client *http.Client, endpoint, path string, runs int, slow time.Duration, answers string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	form, err := parse.Query(string(src))
	if err != nil {
		return err
	}
	graphResult := form.IsGraph()
	accept := "application/sparql-results+json"
	if graphResult {
		accept = "text/turtle"
	}
	send := func() ([]byte, time.Duration, error) {
		start := time.Now()
		req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(url.Values{"query": {string(src)}}.Encode()))
		if err != nil {
			return nil, 0, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", accept)
		resp, err := client.Do(req)
		if err != nil {
			return nil, 0, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		took := time.Since(start)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("%s: %.500s", resp.Status, body)
		}
		return body, took, err
	}
	body, warm, err := send()
	if err != nil {
		return err
	}
	rows, err := count(body, graphResult)
	if err != nil {
		return err
	}
	if answers != "" && !graphResult {
		if err := os.WriteFile(filepath.Join(answers, name(path)+".json"), body, 0o644); err != nil {
			return err
		}
	}
	if warm > slow {
		runs = 2
	}
	var times []time.Duration
	for range runs {
		_, took, err := send()
		if err != nil {
			return err
		}
		times = append(times, took)
	}
	slices.Sort(times)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond)) }
	fmt.Printf("%s\t%d\t%s\t%s\n", name(path), rows, ms(times[len(times)/2]), ms(times[0]))
	return nil
}

// count returns the solutions of a JSON result (1 for an ASK answer of
// true, 0 for false) or the triples of a Turtle graph.
func count(body []byte, graphResult bool) (int, error) {
	if !graphResult {
		r, err := results.ReadJSON(bytes.NewReader(body), "answer")
		if err != nil {
			return 0, err
		}
		if r.Ask {
			if r.Boolean {
				return 1, nil
			}
			return 0, nil
		}
		return len(r.Rows), nil
	}
	tr := turtle.NewReader(bytes.NewReader(body), rdf.ParseOptions{})
	n := 0
	for {
		_, err := tr.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return 0, err
		}
		n++
	}
}
