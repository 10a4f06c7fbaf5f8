package revisit

import (
	"bytes"
	"hash/fnv"
	"slices"
	"unicode"
)

// Shingling after Broder, "On the resemblance and containment of
// documents" (1997): a document is the set of its w-word shingles; the
// resemblance of two documents is |A ∩ B| / |A ∪ B|, estimated from
// bottom-k sketches (the k smallest shingle hashes) so a State stores k
// numbers instead of the document.
const (
	shingleWidth = 4  // words per shingle
	sketchSize   = 64 // hashes kept; the estimate's standard error is about 1/√k
)

// Sketch returns the bottom-k sketch of content's word shingles, sorted.
// Words are maximal runs of letters and digits.
func Sketch(content []byte) []uint64 {
	words := bytes.FieldsFunc(content, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	n := max(len(words)-shingleWidth+1, min(len(words), 1))
	hashes := make([]uint64, 0, n)
	h := fnv.New64a()
	for i := range n {
		h.Reset()
		for _, w := range words[i:min(i+shingleWidth, len(words))] {
			h.Write(w)
			h.Write([]byte{0})
		}
		hashes = append(hashes, h.Sum64())
	}
	slices.Sort(hashes)
	hashes = slices.Compact(hashes)
	return slices.Clip(hashes[:min(len(hashes), sketchSize)])
}

// Resemblance estimates the resemblance of the documents whose sketches
// are a and b: of the k smallest hashes of their union, the fraction that
// is in both. Two empty documents are identical (1).
func Resemblance(a, b []uint64) float64 {
	k := max(len(a), len(b))
	if k == 0 {
		return 1
	}
	var seen, both int
	i, j := 0, 0
	for seen < k && (i < len(a) || j < len(b)) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			i++
		case i == len(a) || b[j] < a[i]:
			j++
		default:
			both++
			i++
			j++
		}
		seen++
	}
	return float64(both) / float64(seen)
}
