package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/aah/setup"
	"github.com/mneme-archive/mneme/kb/adapt"
	"github.com/mneme-archive/mneme/kb/fingerprint"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

func newKBCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kb",
		Short: "Check the application knowledge base and detect web applications",
		Args:  subcommandArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newKBCheckCmd(), newKBDetectCmd(), newKBExtractCmd(), newKBLearnedCmd())
	return cmd
}

func newKBCheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check FILE...",
		Short: "Validate knowledge-base files (YAML, one application type each)",
		Long: `Read each FILE (a directory stands for its *.yaml files) as an application
type of the knowledge base and check it: required keys, no unknown key, valid
XPath patterns, defined target levels, extraction only on terminal levels.
A file of learned patterns (a data folder's kb/learned.yaml) is checked
against the built-in knowledge base: valid status, action, field, XPath,
a type and level the KB has. Every problem is reported as
FILE:LINE:COLUMN: reason; the exit code is 1 when there is any.`,
		Example: `  mneme kb check kb/apps/wordpress.yaml
  mneme kb check my-apps/`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, files []string) error {
			if len(files) == 1 && isLearnedFile(files[0]) {
				return checkLearned(cmd, files[0])
			}
			k, err := kb.LoadFiles(files...)
			if err != nil {
				return reportKBErrors(cmd, err)
			}
			for _, t := range k.Types {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %s (%s), %d detection patterns, %d levels\n",
					t.File, t.ID, t.Category, len(t.Detect), len(t.Levels))
			}
			return nil
		},
	}
}

// detectResult is the --json form of one detection.
type detectResult struct {
	Input   string   `json:"input"`
	Type    string   `json:"type"`
	Level   string   `json:"level"`
	Pattern string   `json:"pattern"`
	Error   string   `json:"error,omitempty"`
	Actions []string `json:"actions,omitempty"`
	Techs   []string `json:"technologies,omitempty"`
}

func newKBDetectCmd() *cobra.Command {
	var asJSON bool
	var fpDir string
	var kbFiles []string
	cmd := &cobra.Command{
		Use:   "detect [--json] [--fingerprints DIR] URL|FILE...",
		Short: "Name the web application behind pages and explain the detection",
		Long: `Detect the application type and page level of each input, an http(s) URL
(fetched) or a saved HTML FILE, and say which pattern fired and which actions
the application-aware crawler would run on the page.

With --fingerprints DIR, Wappalyzer-format fingerprints (technologies/*.json
and categories.json, e.g. ../shared/data/fingerprints/webappanalyzer) are
loaded to name technologies beyond the knowledge base; their rules that need
a browser or JavaScript files (js, scripts, dom, …) are skipped and counted. With --json, one JSON object per input:
{"input":…, "type":…, "level":…, "pattern":…} with type "" when unknown.`,
		Example: `  mneme kb detect http://127.0.0.1:8081/
  mneme kb detect --json page.html
  mneme kb detect --fingerprints ../shared/data/fingerprints/webappanalyzer page.html`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, inputs []string) error {
			var stats io.Writer
			if !asJSON {
				stats = cmd.ErrOrStderr()
			}
			det, err := loadDetector(kbFiles, fpDir, stats)
			if err != nil {
				return err
			}
			return eachInput(cmd.OutOrStdout(), inputs, asJSON,
				func(in string) (detectResult, bool) { r := detectOne(cmd, det, in); return r, r.Error == "" }, printDetection)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per input")
	cmd.Flags().StringVar(&fpDir, "fingerprints", "", "directory of Wappalyzer-format fingerprints to load")
	cmd.Flags().StringSliceVar(&kbFiles, "kb", nil, "knowledge-base files or directories to use instead of the built-in one")
	return cmd
}

// loadDetector loads the knowledge base (kbFiles, or the built-in one)
// and, from fpDir if given, fingerprints, whose load figures go to stats
// unless it is nil.
func loadDetector(kbFiles []string, fpDir string, stats io.Writer) (*kb.Detector, error) {
	k, err := setup.LoadKB(kbFiles)
	if err != nil {
		return nil, err
	}
	var fp *fingerprint.Set
	if fpDir != "" {
		if fp, err = fingerprint.Load(fpDir); err != nil {
			return nil, err
		}
		if stats != nil {
			s := fp.Stats
			fmt.Fprintf(stats, "fingerprints: %d technologies, %d patterns; skipped %d js rules, %d scripts patterns, %d dom/other rules, %d regexes RE2 cannot compile\n",
				s.Technologies, s.Patterns, s.SkippedJS, s.SkippedScripts, s.SkippedOther, s.SkippedRegex)
		}
	}
	return kb.NewDetector(k, fp), nil
}

// eachInput runs one, kb detect's or kb extract's step, on every input
// and prints each result, as one JSON object a line or with text; it fails
// when an input could not be read.
func eachInput[R any](w io.Writer, inputs []string, asJSON bool, one func(string) (R, bool), text func(io.Writer, R)) error {
	failed := 0
	enc := json.NewEncoder(w)
	for _, in := range inputs {
		r, ok := one(in)
		if !ok {
			failed++
		}
		if asJSON {
			if err := enc.Encode(r); err != nil {
				return err
			}
			continue
		}
		text(w, r)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d inputs could not be read", failed, len(inputs))
	}
	return nil
}

// extractResult is the --json form of what kb extract found on one input.
type extractResult struct {
	Input   string          `json:"input"`
	Type    string          `json:"type"`
	Level   string          `json:"level"`
	Objects []extractObject `json:"objects"`
	Error   string          `json:"error,omitempty"`
}

type extractObject struct {
	Kind    string `json:"kind"`
	Title   string `json:"title"`
	Author  string `json:"author"`
	Date    string `json:"date"`
	Text    string `json:"text"`
	ReplyTo string `json:"reply_to"`
}

// objectKinds are the kinds kb extract prints, by object kind.
var objectKinds = map[kb.ObjectKind]string{
	kb.BlogPost: "post", kb.ForumPost: "post", kb.Comment: "comment", kb.WikiArticle: "article",
	kb.WikiRevision: "revision", kb.WebPage: "page",
}

func newKBExtractCmd() *cobra.Command {
	var asJSON bool
	var fpDir string
	var kbFiles []string
	cmd := &cobra.Command{
		Use:   "extract [--json] [--fingerprints DIR] URL|FILE...",
		Short: "Show the objects the application-aware crawler extracts from pages",
		Long: `Run on each input, an http(s) URL (fetched) or a saved HTML FILE, the
detection and extraction the application-aware crawl runs, and print the
objects found: posts, comments, articles, with their title, author, date and
text. Applications the knowledge base describes are extracted with its
patterns, and where they find no posts, or posts without their author or
date (a version or theme the entry was not written for), the page's mined
records take over or fill them; an application only the fingerprints name,
with its category's generic extraction; a page of no known application is
mined for the records of a forum thread. Check a site with it before
crawling it.

With --fingerprints DIR, Wappalyzer-format fingerprints are loaded (see kb
detect). With --json, one JSON object per input:
{"input":…, "type":…, "level":…, "objects":[{"kind":"post|comment|article|…",
"title":…, "author":…, "date":"RFC 3339 or empty", "text":…, "reply_to":…}]}.
A relative date ("2 hours ago") is read against the response's Date header;
in a saved file, which has none, it is left empty.`,
		Example: `  mneme kb extract http://127.0.0.1:8081/?p=1
  mneme kb extract --json thread.html
  mneme kb extract --fingerprints ../shared/data/fingerprints/webappanalyzer page.html`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, inputs []string) error {
			det, err := loadDetector(kbFiles, fpDir, nil)
			if err != nil {
				return err
			}
			return eachInput(cmd.OutOrStdout(), inputs, asJSON,
				func(in string) (extractResult, bool) { r := extractOne(cmd, det, in); return r, r.Error == "" }, printExtraction)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per input")
	cmd.Flags().StringVar(&fpDir, "fingerprints", "", "directory of Wappalyzer-format fingerprints to load")
	cmd.Flags().StringSliceVar(&kbFiles, "kb", nil, "knowledge-base files or directories to use instead of the built-in one")
	return cmd
}

func extractOne(cmd *cobra.Command, det *kb.Detector, in string) extractResult {
	r := extractResult{Input: in, Objects: []extractObject{}}
	doc, err := readInput(cmd, in)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	d, objs := det.PageObjects(doc)
	r.Type = d.App()
	if r.Type == "" && d.Type != nil {
		r.Type = d.Type.ID
	}
	if d.Level != nil {
		r.Level = d.Level.Name
	}
	for _, o := range objs {
		x := extractObject{Kind: objectKinds[o.Kind], Title: o.Title, Author: o.Author, Text: o.Content, ReplyTo: o.ReplyTo}
		if !o.Date.IsZero() {
			x.Date = o.Date.Format(time.RFC3339)
		}
		r.Objects = append(r.Objects, x)
	}
	return r
}

func printExtraction(w io.Writer, r extractResult) {
	switch {
	case r.Error != "":
		fmt.Fprintf(w, "%s: error: %s\n", r.Input, r.Error)
		return
	case r.Type == "":
		fmt.Fprintf(w, "%s: unknown application, no objects\n", r.Input)
		return
	}
	fmt.Fprintf(w, "%s: %s, level %q, %d objects\n", r.Input, r.Type, r.Level, len(r.Objects))
	for i, o := range r.Objects {
		text := o.Text
		if len([]rune(text)) > 120 {
			text = string([]rune(text)[:120]) + "…"
		}
		fmt.Fprintf(w, "  %d. %s", i+1, o.Kind)
		if o.Title != "" {
			fmt.Fprintf(w, " %q", o.Title)
		}
		if o.Author != "" {
			fmt.Fprintf(w, " by %s", o.Author)
		}
		if o.Date != "" {
			fmt.Fprintf(w, " on %s", o.Date)
		}
		fmt.Fprintf(w, "\n     %s\n", text)
	}
}

func detectOne(cmd *cobra.Command, det *kb.Detector, in string) detectResult {
	r := detectResult{Input: in}
	doc, err := readInput(cmd, in)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	d := det.Detect(doc)
	r.Type = d.App()
	switch {
	case d.Pattern != nil:
		r.Pattern = d.Pattern.String()
	case d.Technology != nil:
		r.Pattern = "fingerprint " + d.Technology.Name + ": " + d.Technology.Pattern
	}
	for _, t := range d.Technologies {
		r.Techs = append(r.Techs, t.Name)
	}
	if d.Level == nil {
		return r
	}
	r.Level = d.Level.Name
	links, nfail := d.Type.Navigate(d.Level, doc)
	for _, nav := range d.Level.Navigate {
		n := 0
		for _, l := range links {
			if l.Target == nav.Target {
				n++
			}
		}
		r.Actions = append(r.Actions, fmt.Sprintf("navigate to %s: %d links", nav.Target, n))
	}
	objs, xfail := d.Type.Extract(d.Level, doc)
	counts := map[kb.ObjectKind]int{}
	for _, o := range objs {
		counts[o.Kind]++
	}
	for _, x := range d.Level.Extract {
		r.Actions = append(r.Actions, fmt.Sprintf("extract %s: %d objects", x.Object, counts[x.Object]))
	}
	for _, f := range append(nfail, xfail...) {
		what := f.Action
		if f.Field != "" {
			what += " " + string(f.Field)
		}
		r.Actions = append(r.Actions, fmt.Sprintf("FAILED %s: nothing matched %s", what, strings.Join(f.Patterns, " ; ")))
	}
	return r
}

func readInput(cmd *cobra.Command, in string) (*vdoc.Doc, error) {
	if strings.HasPrefix(in, "http://") || strings.HasPrefix(in, "https://") {
		req, err := http.NewRequestWithContext(cmd.Context(), http.MethodGet, in, nil)
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
		if err != nil {
			return nil, err
		}
		return vdoc.New(resp.Request.URL.String(), resp.Header, body)
	}
	body, err := os.ReadFile(in)
	if err != nil {
		return nil, err
	}
	abs := in
	if !strings.HasPrefix(abs, "/") {
		if wd, err := os.Getwd(); err == nil {
			abs = wd + "/" + in
		}
	}
	return vdoc.New("file://"+abs, nil, body)
}

func printDetection(w io.Writer, r detectResult) {
	if r.Error != "" {
		fmt.Fprintf(w, "%s: error: %s\n", r.Input, r.Error)
		return
	}
	if r.Type == "" {
		fmt.Fprintf(w, "%s: unknown application\n", r.Input)
	} else {
		fmt.Fprintf(w, "%s: %s, level %q\n  pattern: %s\n", r.Input, r.Type, r.Level, r.Pattern)
	}
	for _, a := range r.Actions {
		fmt.Fprintf(w, "  %s\n", a)
	}
	if len(r.Techs) > 0 {
		fmt.Fprintf(w, "  technologies: %s\n", strings.Join(r.Techs, ", "))
	}
}

// isLearnedFile reports a file of learned patterns: YAML whose top-level
// key is "learned".
func isLearnedFile(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		return strings.HasPrefix(line, "learned:")
	}
	return false
}

func checkLearned(cmd *cobra.Command, path string) error {
	k, err := kb.Builtin()
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	props, err := adapt.ParseLearned(path, f, k)
	if err != nil {
		return reportKBErrors(cmd, err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s: %d learned patterns\n", path, len(props))
	return nil
}

// reportKBErrors prints each problem of a knowledge-base file on its own
// line (FILE:LINE:COLUMN: reason) and returns their count as the error.
func reportKBErrors(cmd *cobra.Command, err error) error {
	var es kb.Errors
	if !errors.As(err, &es) {
		return err
	}
	for _, e := range es {
		fmt.Fprintln(cmd.ErrOrStderr(), e)
	}
	return fmt.Errorf("%d problems", len(es))
}
