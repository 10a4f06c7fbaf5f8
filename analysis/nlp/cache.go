package nlp

import (
	"strings"
	"sync"

	"github.com/abadojack/whatlanggo"
	"github.com/maypok86/otter/v2"
)

// sentenceCacheBytes bounds the memory of the sentence cache (its
// sentences' bytes and their names).
const sentenceCacheBytes = 32 << 20

// facts are what the costly steps found in one sentence: its language
// and the recogniser's names. Both depend on the sentence alone.
type facts struct {
	lang      string // ISO 639-1 code; "" when whatlanggo is not sure
	names     []found
	langDone  bool
	namesDone bool
}

// sentenceCache keeps the facts of the sentences read lately, shared by
// the analyzers of the process: archives repeat sentences (a post kept
// from one crawl to the next, its edited version, quotes, boilerplate),
// and the recogniser is most of the text stage's cost.
var sentenceCache = sync.OnceValue(func() *otter.Cache[string, facts] {
	return otter.Must(&otter.Options[string, facts]{
		MaximumWeight: sentenceCacheBytes,
		Weigher: func(s string, f facts) uint32 {
			return uint32(min(len(s)+64+len(f.names)*64, 1<<31))
		},
	})
})

// sentenceLanguage is the language of sentence s by whatlanggo, "" when
// it is not sure.
func sentenceLanguage(s string) string {
	c := sentenceCache()
	f, _ := c.GetIfPresent(s)
	if f.langDone {
		return f.lang
	}
	if info := whatlanggo.Detect(s); info.IsReliable() {
		f.lang = info.Lang.Iso6391()
	}
	f.langDone = true
	c.Set(strings.Clone(s), f) // not the text's bytes, which would stay in memory
	return f.lang
}

// recogniseCached is recognise(s), from the cache when s was read lately.
func recogniseCached(s string) []found {
	c := sentenceCache()
	f, _ := c.GetIfPresent(s)
	if f.namesDone {
		return f.names
	}
	f.names, f.namesDone = recognise(s), true
	c.Set(strings.Clone(s), f)
	return f.names
}
