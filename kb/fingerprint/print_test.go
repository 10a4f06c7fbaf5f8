package fingerprint

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"testing"
)

// TestPrintRegexp prints parsed regexes and checks that what it prints
// matches as the original does, submatches included, on texts that
// exercise each construct.
func TestPrintRegexp(t *testing.T) {
	res := []string{
		`(?i)<link[^>]* href=[^>]*?bootstrap(?:[^>]*?([0-9a-f]{7,40}|\d+(?:.\d+)?)|)[^>-]*?(?:\.min)?\.css`,
		`(?i)^https?://(?:www\.)?reddit\.com$`,
		`(?s)<script [^>]*>.*counter\.yadro\.ru/hit`,
		`(?m)^x-powered-by: (\w+)$`,
		`\bwire:\B|(?P<v>[\d.]+)`,
		`a{2}b{1,}c{0,3}?d*?e+?f??`,
		`[\x{100}-\x{10FFFF}]ſK|Ärger`,
		`(?:)x|[^\x00-\x{10FFFF}]`,
	}
	texts := []string{
		`<LINK rel=x HREF=/css/bootstrap-4.1.3.min.css>`, `<link href=/bootstrap.css>`,
		`https://www.reddit.com`, "<script type=x>\nvar a;//counter.yadro.ru/hit",
		"a\nx-powered-by: PHP\nb", `see wire:model`, `v 1.2.3`, `aabbbcccdddeeeff`,
		`ÿĀſK Ärger ÄRGER`, `x`,
	}
	compared, matched := 0, 0
	for _, re := range res {
		want := regexp.MustCompile(re)
		tree, err := syntax.Parse(re, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		printed, hits := printRegexp(tree), 0
		got, err := regexp.Compile(printed)
		if err != nil {
			t.Fatalf("%s printed as %s: %v", re, printed, err)
		}
		for _, x := range texts {
			w, g := want.FindAllStringSubmatchIndex(x, -1), got.FindAllStringSubmatchIndex(x, -1)
			if !slices.EqualFunc(w, g, slices.Equal[[]int]) {
				t.Errorf("%s printed as %s: on %q %v, want %v", re, printed, x, g, w)
			}
			compared++
			if w != nil {
				hits++
			}
		}
		if hits == 0 {
			t.Errorf("%s matches none of the texts", re)
		}
		matched += hits
		if !slices.Equal(got.SubexpNames(), want.SubexpNames()) {
			t.Errorf("%s printed as %s: groups %q, want %q", re, printed, got.SubexpNames(), want.SubexpNames())
		}
	}
	t.Logf("%d regexes on %d texts, %d with matches", len(res), compared, matched)
}
