package kb

import (
	"bufio"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/kb/fingerprint"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// labelledPage is one row of ../shared/data/aah-pages/labels.tsv.
type labelledPage struct {
	file, cms, level, url, sha, site string
}

// half is the page's half of the split by site: "tuning" or "held-out",
// by the parity of the FNV hash of the site's first label (the split
// the labels' README names, stricter than the registered domain).
func (p labelledPage) half() string {
	label, _, _ := strings.Cut(strings.TrimPrefix(p.site, "www."), ".")
	h := fnv.New32a()
	h.Write([]byte(label))
	if h.Sum32()%2 == 0 {
		return "tuning"
	}
	return "held-out"
}

func loadLabels(tb testing.TB) (string, []labelledPage) {
	tb.Helper()
	dir := testenv.Path(tb, "data", "aah-pages")
	f, err := os.Open(filepath.Join(dir, "labels.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var out []labelledPage
	for first := true; sc.Scan(); first = false {
		if first {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		out = append(out, labelledPage{file: c[0], cms: c[1], level: c[2], url: c[4], sha: c[8], site: c[12]})
	}
	if len(out) == 0 {
		tb.Fatal("labels.tsv has no rows")
	}
	return dir, out
}

// pageDoc builds the virtual document of a saved page; pages without a
// URL get a file: URL, as `mneme kb detect FILE` does.
func pageDoc(tb testing.TB, dir string, p labelledPage) *vdoc.Doc {
	tb.Helper()
	body, err := os.ReadFile(filepath.Join(dir, p.file))
	if err != nil {
		tb.Fatal(err)
	}
	u := p.url
	if u == "" {
		u = "file:///" + p.file
	}
	d, err := vdoc.New(u, nil, body)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

var (
	fpOnce sync.Once
	fpSet  *fingerprint.Set
	fpErr  error
)

func loadFingerprints(tb testing.TB) *fingerprint.Set {
	tb.Helper()
	dir := testenv.Path(tb, "data", "fingerprints", "webappanalyzer")
	fpOnce.Do(func() { fpSet, fpErr = fingerprint.Load(dir) })
	if fpErr != nil {
		tb.Fatal(fpErr)
	}
	return fpSet
}

func builtinKB(tb testing.TB) *KB {
	tb.Helper()
	k, err := Builtin()
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

// detectedAs reports whether the application a detection names is the one
// a label gives. Labels are short names ("typo3"); fingerprint
// technologies are slugs of their names ("typo3-cms"), so a slug that is
// the label followed by "-…" counts too, and so does a slug of several
// words whose initials are the label ("simple-machines-forum" for
// "smf"). An "unknown" page is right when no blog, forum, wiki or CMS
// application is named.
func detectedAs(det *Detection, label string) bool {
	app := det.App()
	if label == "unknown" {
		return app == ""
	}
	return app == label || strings.HasPrefix(app, label+"-") || initials(app) == label
}

// initials are the first letters of a slug's words, "" for a slug of one
// word.
func initials(slug string) string {
	words := strings.Split(slug, "-")
	if len(words) < 2 {
		return ""
	}
	var b strings.Builder
	for _, w := range words {
		if w != "" {
			b.WriteByte(w[0])
		}
	}
	return b.String()
}

// TestDetectionAccuracy measures type detection on the saved pages against
// their labels, with the built-in KB and every webappanalyzer fingerprint,
// and requires the acceptance figure, 95 %.
func TestDetectionAccuracy(t *testing.T) {
	dir, pages := loadLabels(t)
	det := NewDetector(builtinKB(t), loadFingerprints(t))
	right := map[string]int{}
	total := map[string]int{}
	var wrong []string
	halfRight, halfTotal := map[string]int{}, map[string]int{}
	for _, p := range pages {
		d := det.Detect(pageDoc(t, dir, p))
		total[p.cms]++
		halfTotal[p.half()]++
		if detectedAs(d, p.cms) {
			right[p.cms]++
			halfRight[p.half()]++
			continue
		}
		why := ""
		if d.Pattern != nil {
			why = d.Pattern.String()
		} else if d.Technology != nil {
			why = d.Technology.Pattern
		}
		wrong = append(wrong, p.sha+" label="+p.cms+" got="+d.App()+" "+why)
	}
	labels := make([]string, 0, len(total))
	for l := range total {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	sum := 0
	for _, l := range labels {
		t.Logf("%-10s %3d/%3d", l, right[l], total[l])
		sum += right[l]
	}
	for _, w := range wrong {
		t.Log("wrong:", w)
	}
	for _, h := range []string{"tuning", "held-out"} {
		t.Logf("%s half of the split by site: %d/%d = %.1f%%", h, halfRight[h], halfTotal[h], 100*float64(halfRight[h])/float64(halfTotal[h]))
	}
	acc := float64(sum) / float64(len(pages))
	t.Logf("overall %d/%d = %.1f%%", sum, len(pages), 100*acc)
	if acc < 0.95 {
		t.Errorf("detection accuracy %.1f%% < 95%%", 100*acc)
	}
}

// TestNativeMatchesGeneral checks the native evaluator against antchfx's
// on every other saved page, for every detection and level pattern of the
// built-in KB that it evaluates natively.
func TestNativeMatchesGeneral(t *testing.T) {
	dir, pages := loadLabels(t)
	var pats []*Pattern
	for _, ty := range builtinKB(t).Types {
		pats = append(pats, ty.Detect...)
		for _, l := range ty.Levels {
			pats = append(pats, l.Detect...)
		}
	}
	native, agree := 0, 0
	for _, p := range pats {
		if p.Native() {
			native++
		}
	}
	if native < len(pats)*9/10 {
		t.Errorf("only %d of %d patterns are evaluated natively", native, len(pats))
	}
	for i, pg := range pages {
		if i%2 == 1 {
			continue // half the pages: antchfx is slow on all of them
		}
		doc := pageDoc(t, dir, pg)
		for _, p := range pats {
			if !p.Native() {
				continue
			}
			if got, want := p.MatchIndexed(doc.Root, doc), p.Match(doc.Root); got != want {
				t.Errorf("%s: %s: native %v, antchfx %v", pg.sha, p, got, want)
			} else if want {
				agree++
			}
		}
	}
	t.Logf("%d of %d patterns native; %d true matches agree", native, len(pats), agree)
}

// TestDetectAgainstNaive compares Detect with the knowledge base and all
// fingerprints (7,603 types) with detection without any index
// (naiveDetect: every pattern tried, every fingerprint regex on its whole
// field) on every 20th saved page: the type, the pattern that named it
// and the technologies found must agree.
func TestDetectAgainstNaive(t *testing.T) {
	dir, pages := loadLabels(t)
	k, fp := builtinKB(t), loadFingerprints(t)
	det := NewDetector(k, fp)
	names := func(ms []fingerprint.Match) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.Name)
		}
		slices.Sort(out)
		return out
	}
	typed, techs := 0, 0
	for i := 0; i < len(pages); i += naiveEvery {
		doc := pageDoc(t, dir, pages[i])
		got := det.Detect(doc)
		typ, pat, want := naiveDetect(k, fp, doc)
		if typ != nil && (got.Type != typ || got.Pattern != pat) || typ == nil && got.Pattern != nil {
			t.Errorf("%s: Detect names %v by %v, naive %v by %v", pages[i].file, got.Type, got.Pattern, typ, pat)
		}
		if g, w := names(got.Technologies), names(want); !slices.Equal(g, w) {
			t.Errorf("%s: Detect finds %q, naive %q", pages[i].file, g, w)
		}
		if typ != nil {
			typed++
		}
		techs += len(want)
	}
	t.Logf("%d pages: %d named by the knowledge base, %d technologies, as without an index", (len(pages)+naiveEvery-1)/naiveEvery, typed, techs)
	if typed == 0 || techs == 0 {
		t.Error("nothing detected: the comparison compared nothing")
	}
}

// TestApplicationFingerprints checks that the fingerprints a crawl loads
// (fingerprint.LoadOnly with NamesApplication: the technologies that name
// an application and those implying one) detect on every saved page what
// all of them detect: the same application, type, level, the technology
// that named it with its version, and the same technologies of an
// application category.
func TestApplicationFingerprints(t *testing.T) {
	dir, pages := loadLabels(t)
	k, all := builtinKB(t), loadFingerprints(t)
	apps, err := fingerprint.LoadOnly(testenv.Path(t, "data", "fingerprints", "webappanalyzer"), NamesApplication)
	if err != nil {
		t.Fatal(err)
	}
	if apps.Stats.Technologies >= all.Stats.Technologies/2 {
		t.Errorf("%d of %d technologies kept: hardly a subset", apps.Stats.Technologies, all.Stats.Technologies)
	}
	full, lean := NewDetector(k, all), NewDetector(k, apps)
	show := func(d *Detection) string {
		s := d.App() + " " + d.Category()
		if d.Type != nil {
			s += " type=" + d.Type.ID
		}
		if d.Level != nil {
			s += " level=" + d.Level.Name
		}
		if d.Technology != nil {
			s += " by " + d.Technology.Name + " " + d.Technology.Version + " " + d.Technology.Pattern
		}
		for _, m := range d.Technologies {
			if TechCategory(&m) != "" {
				s += " | " + m.Name + " " + m.Version
			}
		}
		return s
	}
	named := 0
	for _, p := range pages {
		doc := pageDoc(t, dir, p)
		want, got := full.Detect(doc), lean.Detect(doc)
		if w, g := show(want), show(got); w != g {
			t.Errorf("%s: all fingerprints: %s; those a crawl loads: %s", p.file, w, g)
		}
		if want.Technology != nil {
			named++
		}
	}
	t.Logf("%d of %d technologies loaded; %d pages, %d named by a technology, alike", apps.Stats.Technologies, all.Stats.Technologies, len(pages), named)
	if named == 0 {
		t.Error("no page named by a technology: the comparison compared nothing")
	}
}

// TestDetectedAs checks how a detection is compared with a label: the
// slug itself, the slug's first word, or its initials; nothing for
// "unknown".
func TestDetectedAs(t *testing.T) {
	for _, c := range []struct {
		slug, label string
		want        bool
	}{
		{"typo3-cms", "typo3", true},
		{"simple-machines-forum", "smf", true},
		{"simple-machines-forum", "simple", true},
		{"mybb", "m", false},
		{"kentico-cms", "unknown", false},
		{"", "unknown", true},
		{"invision-power-board", "ipb", true},
		{"invision-power-board", "vbulletin", false},
	} {
		det := &Detection{}
		if c.slug != "" {
			det.Technology = &fingerprint.Match{Slug: c.slug}
		}
		if got := detectedAs(det, c.label); got != c.want {
			t.Errorf("%q as %q: %v, want %v", c.slug, c.label, got, c.want)
		}
	}
}
