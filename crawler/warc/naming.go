package warc

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// openSuffix marks a file still being written; Recover finishes such files.
const openSuffix = ".open"

// fileName builds a Heritrix-style name:
// {prefix}-{crawlid}-{timestamp14}-{serial5}-{host}.warc.gz.
func fileName(prefix, crawlID string, t time.Time, serial int, host string) string {
	return fmt.Sprintf("%s-%s-%s-%05d-%s.warc.gz", prefix, crawlID,
		t.UTC().Format("20060102150405"), serial, host)
}

// namePart keeps a name component to characters safe in file names on every
// system; anything else becomes '_'.
func namePart(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '~':
			return r
		case r == '-':
			return r
		}
		return '_'
	}, s)
}

// nextSerial returns one more than the highest serial among the files in dir
// of this prefix and crawl, finished or open, so that a resumed crawl never
// reuses a name.
func nextSerial(dir, prefix, crawlID string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("warc: %w", err)
	}
	re := regexp.MustCompile("^" + regexp.QuoteMeta(prefix+"-"+crawlID+"-") + `\d{14}-(\d{5,})-.*\.warc\.gz(\.open)?$`)
	next := 0
	for _, e := range entries {
		if m := re.FindStringSubmatch(e.Name()); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n >= next {
				next = n + 1
			}
		}
	}
	return next, nil
}
