package kb

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// machineDatePage is a blog post whose theme the knowledge base does not
// know, with its comments' dates stated for machines as variant writes
// them: a <time datetime>, microdata's itemprop=dateCreated, a data-time
// or data-utime epoch, each beside a day and month without a year that
// alone is no date; or the JSON-LD of the post's comments, beside
// numbers that read either way ("03/02/2024"); or a <time datetime>
// beside JSON-LD that gives every comment the Unix epoch, a null
// timestamp some engines print for each comment ("json-ld-null").
func machineDatePage(variant string, dates []time.Time) string {
	authors := []string{"ann", "bob", "cy"}
	texts := []string{"Lovely route, we did it last spring with the dog.",
		"Is the path by the mill still closed after the floods?",
		"It opened again last week, and the bridge is new too."}
	var b, ld strings.Builder
	for i, d := range dates {
		shown := d.Format("01/02") // no year: only the machine's date is a date
		if variant == "json-ld" {
			shown = d.Format("01/02/2006")
		}
		var when string
		switch variant {
		case "time", "json-ld-null":
			when = fmt.Sprintf(`<span class="remark-when"><time datetime="%s">%s</time></span>`, d.Format(time.RFC3339), shown)
		case "microdata":
			when = fmt.Sprintf(`<span class="remark-when" itemprop="dateCreated" content="%s">%s</span>`, d.Format(time.RFC3339), shown)
		case "epoch":
			when = fmt.Sprintf(`<span class="remark-when" data-time="%d">%s</span>`, d.Unix(), shown)
		case "utime":
			when = fmt.Sprintf(`<span class="remark-when" data-utime="%d">%s</span>`, d.Unix(), shown)
		case "json-ld":
			when = fmt.Sprintf(`<span class="remark-when">%s</span>`, shown)
			if i > 0 {
				ld.WriteString(",")
			}
			fmt.Fprintf(&ld, `{"@type":"Comment","author":{"@type":"Person","name":%q},"dateCreated":%q,"text":%q}`,
				authors[i], d.Format(time.RFC3339), texts[i])
		}
		if variant == "json-ld-null" {
			if i > 0 {
				ld.WriteString(",")
			}
			fmt.Fprintf(&ld, `{"@type":"Comment","author":{"@type":"Person","name":%q},"dateCreated":"1970-01-01T00:00:00+0000","text":%q}`,
				authors[i], texts[i])
		}
		fmt.Fprintf(&b, `<div class="remark" id="r%d"><cite class="remark-name"><a href="/people/%s">%s</a></cite>
  %s<div class="remark-text"><p>%s</p></div></div>
`, i+1, authors[i], authors[i], when, texts[i])
	}
	head := ""
	if variant == "json-ld" || variant == "json-ld-null" {
		head = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"BlogPosting","headline":"Spring walk","datePublished":"2024-03-01T08:00:00Z","comment":[` + ld.String() + `]}</script>`
	}
	return `<!DOCTYPE html><html><head><meta name="generator" content="WordPress 6.4"><title>Spring walk</title>` + head + `</head>
<body class="post-template-default single single-post postid-12">
<article class="post"><h1 class="entry-title">Spring walk</h1>
<span class="byline"><a href="/author/ed/">ed</a></span><time class="entry-date" datetime="2024-03-01T08:00:00Z">1 March</time>
<div class="entry-content"><p>We walked along the river to the old mill and back before lunch.</p></div></article>
<section id="comments">
` + b.String() + `</section></body></html>`
}

// TestMachineDatesGenerated: each way a page states its comments' dates
// for machines wins over the text shown, which reads either way.
func TestMachineDatesGenerated(t *testing.T) {
	dates := []time.Time{
		time.Date(2024, 3, 2, 10, 15, 0, 0, time.UTC),
		time.Date(2024, 3, 3, 9, 0, 0, 0, time.UTC),
		time.Date(2024, 3, 4, 19, 30, 0, 0, time.UTC),
	}
	kb := builtinKB(t)
	for _, variant := range []string{"time", "microdata", "epoch", "utime", "json-ld", "json-ld-null"} {
		doc, err := vdoc.New("http://blog.example/2024/03/spring-walk/", nil, []byte(machineDatePage(variant, dates)))
		if err != nil {
			t.Fatal(err)
		}
		det := NewDetector(kb, nil).Detect(doc)
		if det.Type == nil || det.Level == nil {
			t.Fatalf("%s: nothing detected", variant)
		}
		objs, _, _ := det.Type.ExtractPage(det.Level, doc, nil)
		var got []time.Time
		for _, o := range objs {
			if o.Kind == Comment {
				got = append(got, o.Date)
			}
		}
		if len(got) != len(dates) {
			t.Errorf("%s: %d comments, want %d", variant, len(got), len(dates))
			continue
		}
		for i := range dates {
			if !got[i].Equal(dates[i]) {
				t.Errorf("%s: comment %d dated %v, want %v", variant, i+1, got[i], dates[i])
			}
		}
	}
}

// TestStatedEpochIsNoDate: a date stated for machines at the Unix epoch,
// a null timestamp some engines print where they have none, is no date:
// not the page's (its JSON-LD), nor an element's (its attribute), and
// the page's next machine-readable date is taken instead.
func TestStatedEpochIsNoDate(t *testing.T) {
	page := `<!DOCTYPE html><html><head><script type="application/ld+json">{"@type":"BlogPosting","datePublished":"1970-01-01T00:00:00+0000"}</script></head>
<body><article><time datetime="2024-03-01T08:00:00Z">1 March</time><span id="null" data-date="1970-01-01T00:00:00Z">-</span></article></body></html>`
	doc, err := vdoc.New("http://blog.example/2024/03/walk/", nil, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := PageDate(doc), time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("page date %v, want %v", got, want)
	}
	var span *html.Node
	var find func(n *html.Node)
	find = func(n *html.Node) {
		if attr(n, "id") == "null" {
			span = n
		}
		for c := n.FirstChild; c != nil && span == nil; c = c.NextSibling {
			find(c)
		}
	}
	find(doc.Root)
	if d, ok := statedDate(span); ok {
		t.Errorf("the epoch stated by data-date read as %v", d)
	}
}
