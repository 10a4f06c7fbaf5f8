package kb

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"
)

// TestDatesCLDR reads dates written by ICU's CLDR data in 40 languages
// (testdata/dates-cldr.tsv, made by scripts/gen/date-cases.mjs: long,
// medium, full and short dates, with and without a time, and relative
// dates), and requires 90 % read right with the page's language known
// and 70 % without it. The reader's CLDR tables (cldr_dates_gen.go) come
// from the same data, so this checks that they are read as written;
// TestDatesHeldOut, on another source, judges generalisation. The misses
// are logged by language.
func TestDatesCLDR(t *testing.T) {
	f, err := os.Open("testdata/dates-cldr.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	total, withLang, without := 0, 0, 0
	missed := map[string][]string{}
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 4 {
			t.Fatalf("bad row %q", sc.Text())
		}
		now, err1 := time.Parse(time.RFC3339, c[2])
		want, err2 := time.Parse(time.RFC3339, c[3])
		if err1 != nil || err2 != nil {
			t.Fatalf("bad row %q", sc.Text())
		}
		total++
		if got, ok := ParseDateAt(c[1], c[0], now); ok && got.Equal(want) {
			withLang++
		} else {
			missed[c[0]] = append(missed[c[0]], c[1])
		}
		if got, ok := ParseDateAt(c[1], "", now); ok && got.Equal(want) {
			without++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for lang, m := range missed {
		t.Logf("%-7s missed %2d: %q", lang, len(m), m)
	}
	t.Logf("language known: %d/%d = %.1f%%; unknown: %d/%d = %.1f%%", withLang, total,
		100*float64(withLang)/float64(total), without, total, 100*float64(without)/float64(total))
	if total < 900 || 10*withLang < 9*total || 10*without < 7*total {
		t.Errorf("read right: %d and %d of %d, want 90 %% and 70 %%", withLang, without, total)
	}
}
