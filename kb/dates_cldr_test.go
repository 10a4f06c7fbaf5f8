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

// TestDateForms reads the forms templates write that differ from the
// tables' exact strings, each form by a general rule: typographic
// apostrophes and format characters, a time of day written with a dot
// after a day word, weekday names of several words or of scripts
// without spaces, a clock's half without its dots, relative forms that
// say their number in words, the night's hours, month names of several
// words or glued to a letter, a Chinese clock, and "a few moments ago".
func TestDateForms(t *testing.T) {
	now := time.Date(2024, 3, 20, 12, 0, 0, 0, time.UTC) // a Wednesday
	for _, c := range []struct {
		in, lang, want string
	}{
		{"aujourd’hui, 09:30", "fr", "2024-03-20T09:30:00Z"},
		{"i går kl. 21.40", "da", "2024-03-19T21:40:00Z"},
		{"eilen klo 7.15", "", "2024-03-19T07:15:00Z"},
		{"上星期一 10:20", "zh", "2024-03-18T10:20:00Z"},
		{"thứ hai lúc 9:15", "vi", "2024-03-18T09:15:00Z"},
		{"an-dè aig 21:40", "gd", "2024-03-19T21:40:00Z"},
		{"12 Μαΐου 2021 3:10 ΜΜ", "el", "2021-05-12T15:10:00Z"},
		{"12 Μαΐου 2021 12:10 ΠΜ", "", "2021-05-12T00:10:00Z"},
		{"ម្សិល\u200bមិញ 10:20", "km", "2024-03-19T10:20:00Z"},
		{"eilen 1.250", "", ""}, // a number, no time
		// A relative form that says its number in words (CLDR's and
		// date-fns's forms of two, "{=2}").
		{"قبل ساعتين", "ar", "2024-03-20T10:00:00Z"},
		{"לפני שעתיים", "", "2024-03-20T10:00:00Z"},
		// The night's word: 12 is midnight, 10 an evening hour.
		{"25 दिसंबर 2022, रात 12:15", "hi", "2022-12-25T00:15:00Z"},
		{"25 दिसंबर 2022, रात 10:15", "hi", "2022-12-25T22:15:00Z"},
		// Month names of several words, the last inflected, and the
		// letters CLDR glues to a month in a date.
		{"2021 оны арван нэгдүгээр сарын 5", "mn", "2021-11-05T00:00:00Z"},
		{"5 בנובמבר 2021", "he", "2021-11-05T00:00:00Z"},
		// A time of a Chinese clock, its half in the same run.
		{"2021年11月5日下午3点20分", "zh", "2021-11-05T15:20:00Z"},
		// A few moments before now, in words no unit names.
		{"कुछ क्षण पहले", "hi", "2024-03-20T12:00:00Z"},
		{"vor einigen Augenblicken", "de", "2024-03-20T12:00:00Z"},
		{"vor 5 Augenblicken", "de", ""}, // a number of no known unit
		// The page's language's unit with another language's marker.
		{"5 دقیقه قبل", "fa", "2024-03-20T11:55:00Z"},
		// A run of a script without spaces.
		{"3ថ្ងៃមុន", "km", "2024-03-17T12:00:00Z"},
		// A spelling without the word's final mark.
		{"7 કલાક પહેલા", "gu", "2024-03-20T05:00:00Z"},
		// A weekday inflected; a weekday with a time and a marker word.
		{"в среду в 10:20", "ru", "2024-03-20T10:20:00Z"},
		{"دوشنبه پیش ساعت 10:20", "fa", "2024-03-18T10:20:00Z"},
	} {
		got, ok := ParseDateAt(c.in, c.lang, now)
		switch {
		case c.want == "" && ok:
			t.Errorf("ParseDateAt(%q, %q) = %v, want unread", c.in, c.lang, got)
		case c.want != "" && (!ok || got.Format(time.RFC3339) != c.want):
			t.Errorf("ParseDateAt(%q, %q) = %v, %v, want %s", c.in, c.lang, got, ok, c.want)
		}
	}
}
