package kb

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

func TestDateContextOrder(t *testing.T) {
	now := time.Date(2024, 5, 20, 15, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		texts    []string
		declared string
		read     string
		want     time.Time
	}{
		// One date of the page read one way only fixes the order of all.
		{[]string{"03/02/2020 10:15", "02/22/2020 08:00"}, "", "03/02/2020 10:15", time.Date(2020, 3, 2, 10, 15, 0, 0, time.UTC)},
		{[]string{"03/02/2020 10:15", "22/02/2020 08:00"}, "en-US", "03/02/2020 10:15", time.Date(2020, 2, 3, 10, 15, 0, 0, time.UTC)},
		// None decides: the declared language's order.
		{[]string{"03/02/2020", "04/02/2020"}, "en-US", "03/02/2020", time.Date(2020, 3, 2, 0, 0, 0, 0, time.UTC)},
		{[]string{"03/02/2020", "04/02/2020"}, "", "03/02/2020", time.Date(2020, 2, 3, 0, 0, 0, 0, time.UTC)},
		// Language undeclared, inferred from the page's date words: Farsi
		// relative dates and Persian digits.
		{[]string{"۳ ساعت پیش", "دیروز"}, "", "۳ ساعت پیش", now.Add(-3 * time.Hour)},
	} {
		ctx := NewDateContext(c.texts, c.declared, now)
		got, ok := ctx.Parse(c.read)
		if !ok || !got.Equal(c.want) {
			t.Errorf("%q in %q (declared %q): %v %v, want %v (context %+v)", c.read, c.texts, c.declared, got, ok, c.want, ctx)
		}
	}
}

func TestInferDateLang(t *testing.T) {
	for _, c := range []struct {
		texts []string
		want  string
	}{
		{[]string{"15 marraskuuta 2021", "3 tuntia sitten"}, "fi"},
		{[]string{"vor 3 Stunden", "gestern, 14:05"}, "de"},
		{[]string{"12:05", "2021-11-23"}, ""},
	} {
		if got := InferDateLang(c.texts); got != c.want {
			t.Errorf("InferDateLang(%q) = %q, want %q", c.texts, got, c.want)
		}
	}
}

func TestRelativeDatesCLDR(t *testing.T) {
	now := time.Date(2024, 5, 20, 15, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		s, lang string
		want    time.Time
	}{
		{"3 ساعت پیش", "", now.Add(-3 * time.Hour)},
		{"2 дня назад", "", now.Add(-48 * time.Hour)},
		{"hace 2 días", "", now.Add(-48 * time.Hour)},
		{"vor einer Stunde", "de", now.Add(-time.Hour)},
		{"3 小時前", "", now.Add(-3 * time.Hour)},
		{"٣ ساعات", "", time.Time{}}, // a duration, no "ago": not a date
		{"5 minutes read", "en", time.Time{}},
		{"in 3 hours", "en", time.Time{}},
		{"just now", "", now},
		{"3 ч. назад", "", now.Add(-3 * time.Hour)},
		{"Mar '19", "en", time.Time{}},                                              // March 2019: no day to read
		{"3. März 2020, 14:05", "en", time.Date(2020, 3, 3, 14, 5, 0, 0, time.UTC)}, // a template's lang, not the post's
		{"Сёння ў 08:00", "be", time.Date(2024, 5, 20, 8, 0, 0, 0, time.UTC)},
		{"पिछले शुक्रवार, दोपहर २:०५ बजे", "hi", time.Date(2024, 5, 17, 14, 5, 0, 0, time.UTC)},
	} {
		got, ok := ParseDateAt(c.s, c.lang, now)
		if c.want.IsZero() {
			if ok {
				t.Errorf("ParseDateAt(%q, %q) = %v, want no date", c.s, c.lang, got)
			}
			continue
		}
		if !ok || !got.Equal(c.want) {
			t.Errorf("ParseDateAt(%q, %q) = %v %v, want %v", c.s, c.lang, got, ok, c.want)
		}
	}
}

func TestAttrDate(t *testing.T) {
	for _, c := range []struct {
		src  string
		want time.Time
	}{
		{`<span class="date"><time datetime="2019-03-07T14:05:00Z">7 Mar</time></span>`, time.Date(2019, 3, 7, 14, 5, 0, 0, time.UTC)},
		{`<span class="relative-date" data-time="1551967500000">5y</span>`, time.Date(2019, 3, 7, 14, 5, 0, 0, time.UTC)},
		{`<div><abbr title="Thursday, 7 March 2019 14:05">7 Mar</abbr></div>`, time.Date(2019, 3, 7, 14, 5, 0, 0, time.UTC)},
		{`<span class="date" title="Permalink">7 Mar</span>`, time.Time{}},
	} {
		doc, err := html.Parse(strings.NewReader(c.src))
		if err != nil {
			t.Fatal(err)
		}
		n := doc.FirstChild.LastChild.FirstChild // html > body > first element
		got, _, ok := attrDate(n, "")
		if ok != !c.want.IsZero() || ok && !got.Equal(c.want) {
			t.Errorf("attrDate(%s) = %v %v, want %v", c.src, got, ok, c.want)
		}
	}
}
