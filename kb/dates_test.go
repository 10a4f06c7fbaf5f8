package kb

import (
	"net/http"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

func TestParseDateAt(t *testing.T) {
	now := time.Date(2024, 3, 20, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want string // RFC 3339; "" when unread
		now  time.Time
	}{
		{"2017-09-09T01:19:18+01:00", "2017-09-09T01:19:18+01:00", time.Time{}},
		{"Sep 14, 2017", "2017-09-14T00:00:00Z", time.Time{}},
		{"#2 erstellt: 21. Apr 2020, 20:53", "2020-04-21T20:53:00Z", time.Time{}},
		{"3 марта 2021", "2021-03-03T00:00:00Z", time.Time{}},
		{"12 de enero de 2020", "2020-01-12T00:00:00Z", time.Time{}},
		{"lunedì 3 febbraio 2020", "2020-02-03T00:00:00Z", time.Time{}},
		{"mercredi 4 mars 2020 à 10h12", "2020-03-04T10:12:00Z", time.Time{}},
		{"2 hours ago", "2024-03-20T10:00:00Z", now},
		{"vor 3 Tagen", "2024-03-17T12:00:00Z", now},
		{"il y a 2 jours", "2024-03-18T12:00:00Z", now},
		{"yesterday at 10:20", "2024-03-19T10:20:00Z", now},
		{"3 giorni fa", "2024-03-17T12:00:00Z", now},
		{"5 дней назад", "2024-03-15T12:00:00Z", now},
		{"gestern, 18:03", "2024-03-19T18:03:00Z", now},
		{"Sunday at 3:15 PM", "2024-03-17T15:15:00Z", now},
		{"March 30", "2023-03-30T00:00:00Z", now},
		{"14. lokakuuta 2019", "2019-10-14T00:00:00Z", time.Time{}},
		{"5 listopada 2019", "2019-11-05T00:00:00Z", time.Time{}},
		{"14:05", "2024-03-20T14:05:00Z", now.Add(3 * time.Hour)}, // a time alone: today's
		{"14:05", "2024-03-19T14:05:00Z", now},                    // later than now: yesterday's
		{"3 天前", "2024-03-17T12:00:00Z", now},
		{"2 minggu yang lalu", "2024-03-06T12:00:00Z", now}, // weeks, not minutes
		{"2 hours ago", "", time.Time{}},                    // relative to no known capture
		// Short month words of languages not named, in a whole date.
		{"#171193 by lemmiwinx Sun Dec 15, 2019 4:58 pm", "2019-12-15T16:58:00Z", time.Time{}},
		{"4 gen 2023", "2023-01-04T00:00:00Z", time.Time{}},
		{"4 Oca 2023 09:41", "2023-01-04T09:41:00Z", time.Time{}},
		{"7 мар. 2019 г., 14:05", "2019-03-07T14:05:00Z", time.Time{}},
		{"gen 12 items 2023", "", time.Time{}}, // a word that is no date's
		{"23 lis 2021", "", time.Time{}},       // November in Polish, October in Croatian
		{"Joined Jan 2010", "", now},           // no day
		{"Posts: 1,234", "", now},
		{"Hello world", "", now},
		{"Today's topics", "", now},
	} {
		got, ok := ParseDateAt(c.in, "", c.now)
		if c.want == "" {
			if ok {
				t.Errorf("ParseDateAt(%q) = %v, want unread", c.in, got)
			}
			continue
		}
		want, _ := time.Parse(time.RFC3339, c.want)
		if !ok || !got.Equal(want) {
			t.Errorf("ParseDateAt(%q) = %v, %v; want %v", c.in, got, ok, want)
		}
	}
	// All-numeric dates in the order of the page's language.
	for _, c := range []struct{ in, lang, want string }{
		{"3/7/19", "en-US", "2019-03-07"}, {"3/7/19", "en-GB", "2019-07-03"}, {"3.7.2019", "en-US", "2019-07-03"},
		{"19. 3. 7.", "ko", "2019-03-07"}, {"7. 3. 2019", "cs", "2019-03-07"},
	} {
		got, ok := ParseDateIn(c.in, c.lang)
		if !ok || got.Format(time.DateOnly) != c.want {
			t.Errorf("ParseDateIn(%q, %q) = %v, %v; want %s", c.in, c.lang, got, ok, c.want)
		}
	}
	if !RelativeDate("11 days ago") || RelativeDate("Sep 14, 2017") {
		t.Error("RelativeDate: 11 days ago is relative, Sep 14, 2017 is not")
	}
}

func TestPageDate(t *testing.T) {
	for _, c := range []struct{ name, page, want string }{
		{"JSON-LD before the rest", `<html><head><meta property="article:published_time" content="2019-01-01T00:00:00Z">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":"BlogPosting","datePublished":"2020-05-06T07:08:09Z"}]}</script>
</head><body><time datetime="2018-01-01">old</time></body></html>`, "2020-05-06T07:08:09Z"},
		{"microdata", `<html><body><article><span itemprop="datePublished" content="2021-02-03">3 Feb</span><time datetime="2018-01-01">x</time></article></body></html>`, "2021-02-03T00:00:00Z"},
		{"Open Graph", `<html><head><meta property="article:published_time" content="2019-01-01T10:00:00Z"></head><body><time datetime="2018-01-01">x</time></body></html>`, "2019-01-01T10:00:00Z"},
		{"time element", `<html><body><p>Posted <time datetime="2018-01-02T03:04:05Z">Jan 2</time></p></body></html>`, "2018-01-02T03:04:05Z"},
		{"none", `<html><body><p>No date at all.</p></body></html>`, ""},
	} {
		doc, err := vdoc.New("http://example.org/p", nil, []byte(c.page))
		if err != nil {
			t.Fatal(err)
		}
		got := PageDate(doc)
		if c.want == "" {
			if !got.IsZero() {
				t.Errorf("%s: %v, want none", c.name, got)
			}
			continue
		}
		if want, _ := time.Parse(time.RFC3339, c.want); !got.Equal(want) {
			t.Errorf("%s: %v, want %v", c.name, got, want)
		}
	}
	doc, _ := vdoc.New("http://example.org/", http.Header{"Date": {"Wed, 20 Mar 2024 12:00:00 GMT"}}, []byte("<p>x</p>"))
	if got := CaptureTime(doc); !got.Equal(time.Date(2024, 3, 20, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("CaptureTime: %v", got)
	}
}
