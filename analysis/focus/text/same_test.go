package text

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// referenceCounts is the analysis without the word cache or the ASCII
// fast path: every word lower-cased rune by rune, checked against the
// stop words and stemmed. The cached analysis must give the same counts.
func referenceCounts(a *Analyzer, s string) Vector {
	lang := a.detect(s)
	v := Vector{}
	start, letters := -1, false
	flush := func(end int) {
		if start >= 0 && letters && end-start >= 2 {
			var b strings.Builder
			for _, r := range s[start:end] {
				b.WriteRune(unicode.ToLower(r))
			}
			w := b.String()
			for _, l := range a.langs {
				if l.stop(w) {
					start, letters = -1, false
					return
				}
			}
			v[a.langs[lang].stem(w, true)]++
		}
		start, letters = -1, false
	}
	for i, r := range s {
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'), r >= utf8.RuneSelf && unicode.IsLetter(r):
			if start < 0 {
				start = i
			}
			letters = true
		case r >= '0' && r <= '9':
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
	return v
}

var sameCorpus = []string{
	"The Crawlers were crawling; a crawled page, 2024 and X. Web ARCHIVES archive Archiving",
	"Les archives du web et la conservation des pages pour les chercheurs: Été, ÉCOLE, été2024",
	"Архивы веба и сохранение страниц для исследователей; АРХИВ архивный",
	"Arkivering av webbsidor för forskare och bibliotek, Straße STRASSE ǅemal İstanbul",
	"mixed123 123 a1 1a x9y Ωmega ΩMEGA naïve café CAFÉ\u00a0non-breaking\u2003em space",
}

// randomText draws words from letters of several scripts, digits and
// punctuation, in mixed case.
func randomText(r *rand.Rand, n int) string {
	alpha := []rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéÉàßøØжЖΩω0123456789")
	sep := []string{" ", ", ", ". ", "\n", "-", "'", "\u00a0", "…", "/"}
	var b strings.Builder
	for range n {
		for range 1 + r.IntN(9) {
			b.WriteRune(alpha[r.IntN(len(alpha))])
		}
		b.WriteString(sep[r.IntN(len(sep))])
	}
	return b.String()
}

// TestCountsSameAsReference checks the cached, fast-path analysis
// against the plain one on a fixed corpus and on random text, in one
// language and several, twice (the second time from the cache).
func TestCountsSameAsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 1))
	corpus := append([]string(nil), sameCorpus...)
	for range 20 {
		corpus = append(corpus, randomText(r, 200))
	}
	for _, langs := range [][]string{{"en"}, {"en", "fr", "ru", "sv"}} {
		a, err := New(langs...)
		if err != nil {
			t.Fatal(err)
		}
		for pass := range 2 {
			for i, s := range corpus {
				got, want := a.Counts(s), referenceCounts(a, s)
				if len(got) != len(want) {
					t.Fatalf("%v pass %d text %d: %d terms, want %d", langs, pass, i, len(got), len(want))
				}
				for term, c := range want {
					if got[term] != c {
						t.Fatalf("%v pass %d text %d: %q counted %v, want %v", langs, pass, i, term, got[term], c)
					}
				}
			}
		}
	}
}

// TestCountsConcurrent counts texts from several goroutines at once while
// the cache fills (run with -race).
func TestCountsConcurrent(t *testing.T) {
	a, err := New("en")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	var texts []string
	for range 8 {
		texts = append(texts, randomText(r, 300))
	}
	want := make([]Vector, len(texts))
	for i, s := range texts {
		want[i] = referenceCounts(a, s)
	}
	errs := make(chan string, len(texts))
	for i, s := range texts {
		go func() {
			for range 3 {
				got := a.Counts(s)
				for term, c := range want[i] {
					if got[term] != c {
						errs <- term
						return
					}
				}
			}
			errs <- ""
		}()
	}
	for range texts {
		if e := <-errs; e != "" {
			t.Errorf("concurrent counts differ at %q", e)
		}
	}
}

// TestCountsAfterTheCacheFills counts texts of more distinct words than
// the word cache holds, so that it empties and fills again, and then
// texts it held before.
func TestCountsAfterTheCacheFills(t *testing.T) {
	a, err := New("en")
	if err != nil {
		t.Fatal(err)
	}
	word := func(i int) string {
		b := []byte("zq")
		for ; i > 0; i /= 26 {
			b = append(b, 'a'+byte(i%26))
		}
		return string(b)
	}
	var texts []string
	for k := range 9 {
		var sb strings.Builder
		for i := range wordCacheMax / 8 {
			sb.WriteString(word(k*wordCacheMax/8 + i))
			sb.WriteString(" the archive ")
		}
		texts = append(texts, sb.String())
	}
	for _, s := range append(texts, texts[0], texts[1]) {
		got, want := a.Counts(s), referenceCounts(a, s)
		if len(got) != len(want) {
			t.Fatalf("%d terms, want %d", len(got), len(want))
		}
		for term, c := range want {
			if got[term] != c {
				t.Fatalf("%q counted %v, want %v", term, got[term], c)
			}
		}
	}
}

// TestCountsRepeatedLines counts texts assembled from a pool of lines,
// as a site's pages repeat blocks, so that lines are counted from the
// block cache (from their third sighting on), mixed with lines of their
// own, in one language and several; and again after the word cache
// emptied (the cached lines' counts are by the ids it dropped).
func TestCountsRepeatedLines(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 2))
	pool := append([]string(nil), sameCorpus...)
	for range 30 {
		pool = append(pool, strings.ReplaceAll(randomText(r, 12+r.IntN(30)), "\n", " "))
	}
	page := func() string {
		var b strings.Builder
		for range 4 + r.IntN(12) {
			if r.IntN(4) == 0 {
				b.WriteString(randomText(r, 10)) // a line of the page's own
			} else {
				b.WriteString(pool[r.IntN(len(pool))])
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	check := func(a *Analyzer, s string) {
		t.Helper()
		got, want := a.Counts(s), referenceCounts(a, s)
		if len(got) != len(want) {
			t.Fatalf("%v: %d terms, want %d in %q", a.codes, len(got), len(want), s)
		}
		for term, c := range want {
			if got[term] != c {
				t.Fatalf("%v: %q counted %v, want %v in %q", a.codes, term, got[term], c, s)
			}
		}
	}
	for _, langs := range [][]string{{"en"}, {"en", "fr", "ru", "sv"}} {
		a, err := New(langs...)
		if err != nil {
			t.Fatal(err)
		}
		for range 200 {
			check(a, page())
		}
		hits := 0
		for i := range a.cache.shards {
			hits += len(a.cache.shards[i].blocks.m)
		}
		if hits == 0 {
			t.Fatalf("%v: no line kept in the block cache", langs)
		}
		// Fill the word cache past its bound: it empties, the lines too.
		var sb strings.Builder
		for i := range wordCacheMax + 10 {
			fmt.Fprintf(&sb, "zq%x ", i*7919)
		}
		check(a, sb.String())
		for range 50 {
			check(a, page())
		}
	}
}
