// Package turtle reads and writes RDF 1.1 Turtle and TriG.
//
// One hand-written, streaming parser serves both languages: it tokenizes
// from a buffered reader and hands out each triple as soon as its object is
// complete, so memory grows with nesting depth and token size, never with
// the size of the document. TriG is the same grammar plus graph blocks.
//
// Blank node labels: labels written in the document are kept as written,
// except that a label starting with '_' gets one more '_' in front
// (_:_x becomes _:__x). Labels the parser generates for [] and
// collections are "_g" followed by a number. A generated label thus starts
// with '_' followed by 'g', which no kept label can: the two never collide
// within a document, and all labels stay valid N-Triples labels.
package turtle
