package kb

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

func TestParseDate(t *testing.T) {
	utc := func(y int, m time.Month, d, h, min, s int) time.Time {
		return time.Date(y, m, d, h, min, s, 0, time.UTC)
	}
	cases := []struct {
		lang, text string
		want       time.Time
	}{
		// Machine formats.
		{"", "2017-09-09T01:19:18+01:00", time.Date(2017, 9, 9, 1, 19, 18, 0, time.FixedZone("", 3600))},
		{"", "2017-09-09T01:19:18+0100", time.Date(2017, 9, 9, 1, 19, 18, 0, time.FixedZone("", 3600))},
		{"", "2020-02-03 14:05", utc(2020, 2, 3, 14, 5, 0)},
		{"", "1600000000", time.Unix(1600000000, 0).UTC()},
		// All-numeric, year first, day first, month first.
		{"", "2026/11/28 10:20", utc(2026, 11, 28, 10, 20, 0)},
		{"en", "Last modified: 2026/11/28 10:20 by admin", utc(2026, 11, 28, 10, 20, 0)},
		{"", "22.02.2019", utc(2019, 2, 22, 0, 0, 0)},
		{"", "29.01.19", utc(2019, 1, 29, 0, 0, 0)},
		{"", "02/22/2019", utc(2019, 2, 22, 0, 0, 0)},
		{"fr", "04/02/2005, 12h25", utc(2005, 2, 4, 12, 25, 0)},
		// Month words, in English, German, French, Spanish and Dutch.
		{"en", "Sep 14, 2017", utc(2017, 9, 14, 0, 0, 0)},
		{"en", "Thu Jan 02, 2020 8:48 pm", utc(2020, 1, 2, 20, 48, 0)},
		{"en", "March 3, 2021 at 12:05 am", utc(2021, 3, 3, 0, 5, 0)},
		{"en-GB", "14th Sept. 2017", utc(2017, 9, 14, 0, 0, 0)},
		{"de", "20. April 2020 11:20", utc(2020, 4, 20, 11, 20, 0)},
		{"de-AT", "3. Jänner 2024", utc(2024, 1, 3, 0, 0, 0)},
		{"de", "1. März 2019", utc(2019, 3, 1, 0, 0, 0)},
		{"fr", "le 5 août 2018 à 9h05", utc(2018, 8, 5, 9, 5, 0)},
		{"fr", "12 févr. 2016", utc(2016, 2, 12, 0, 0, 0)},
		{"es", "7 de diciembre de 2015", utc(2015, 12, 7, 0, 0, 0)},
		{"es", "2 ene 2022", utc(2022, 1, 2, 0, 0, 0)},
		{"nl", "9 mei 2023", utc(2023, 5, 9, 0, 0, 0)},
		{"nl", "17 mrt 2011", utc(2011, 3, 17, 0, 0, 0)},
		// Words that start like months are not months.
		{"en", "market 2026/11/28", utc(2026, 11, 28, 0, 0, 0)},
		{"en", "modified by mayor 2026/11/28", utc(2026, 11, 28, 0, 0, 0)},
		{"", "Junk decor: 2019-04-05", utc(2019, 4, 5, 0, 0, 0)},
		{"de", "Dezimal 05.06.2020", utc(2020, 6, 5, 0, 0, 0)},
		{"en", "Octopus 1.2.2021", utc(2021, 2, 1, 0, 0, 0)},
		// A month word of another language is not one in the page's.
		{"en", "mei 09.10.2023", utc(2023, 10, 9, 0, 0, 0)},
		// Language unknown: every language's words.
		{"", "9 mei 2023", utc(2023, 5, 9, 0, 0, 0)},
		{"ja", "3 Dezember 2020", utc(2020, 12, 3, 0, 0, 0)},
	}
	for _, c := range cases {
		got, ok := ParseDateIn(c.text, c.lang)
		if !ok || !got.Equal(c.want) {
			t.Errorf("ParseDateIn(%q, %q) = %v, %v; want %v", c.text, c.lang, got, ok, c.want)
		}
	}
	for _, s := range []string{"", "yesterday", "market report", "Marching 12, 2020", "May 14", "Augustine 3 2019", "2 days ago"} {
		if got, ok := ParseDateIn(s, "en"); ok {
			t.Errorf("ParseDateIn(%q, en) = %v, want no date", s, got)
		}
	}
}

func TestDocLang(t *testing.T) {
	for _, c := range []struct {
		page, header, want string
	}{
		{`<!DOCTYPE html><html lang="de-DE"><body>x</body></html>`, "", "de-DE"},
		{`<html xml:lang="fr"><body>x</body></html>`, "", "fr"},
		{`<html><body>x</body></html>`, "nl, en", "nl"},
		{`<p>x</p>`, "", ""},
	} {
		root, err := html.Parse(strings.NewReader(c.page))
		if err != nil {
			t.Fatal(err)
		}
		h := http.Header{}
		if c.header != "" {
			h.Set("Content-Language", c.header)
		}
		if got := DocLang(root, h); got != c.want {
			t.Errorf("DocLang(%q, %q) = %q, want %q", c.page, c.header, got, c.want)
		}
	}
}
