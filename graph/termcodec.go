package graph

import (
	"encoding/binary"
	"fmt"

	"github.com/mneme-archive/mneme/rdf"
)

// Encoded term kinds: the first byte of a dictionary value. Simple and
// language-tagged literals have their own kinds so that the common cases
// do not store a datatype IRI.
const (
	encIRI    = 'I'
	encBlank  = 'B'
	encString = 'S' // xsd:string literal: value
	encLang   = 'L' // uvarint len(lang), lang, value
	encTyped  = 'T' // uvarint len(datatype), datatype, value
)

// encodedKind is the first byte of the encoding of an IRI or a blank node.
func encodedKind(k rdf.Kind) byte {
	if k == rdf.KindBlank {
		return encBlank
	}
	return encIRI
}

// appendTerm appends the dictionary encoding of t; the encoding is what
// the term's ID is hashed from, so equal terms encode equally.
func appendTerm(dst []byte, t rdf.Term) []byte {
	switch t.Kind {
	case rdf.KindIRI, rdf.KindBlank:
		dst = append(dst, encodedKind(t.Kind))
	case rdf.KindLiteral:
		switch {
		case t.Lang != "":
			dst = append(dst, encLang)
			dst = binary.AppendUvarint(dst, uint64(len(t.Lang)))
			dst = append(dst, t.Lang...)
		case t.Datatype == "" || t.Datatype == rdf.XSDString:
			dst = append(dst, encString)
		default:
			dst = append(dst, encTyped)
			dst = binary.AppendUvarint(dst, uint64(len(t.Datatype)))
			dst = append(dst, t.Datatype...)
		}
	}
	return append(dst, t.Value...)
}

// decodeTerm is the inverse of appendTerm. The term's strings are copies.
func decodeTerm(b []byte) (rdf.Term, error) {
	if len(b) == 0 {
		return rdf.Term{}, fmt.Errorf("empty term encoding")
	}
	rest := b[1:]
	switch b[0] {
	case encIRI:
		return rdf.IRI(string(rest)), nil
	case encBlank:
		return rdf.Blank(string(rest)), nil
	case encString:
		return rdf.String(string(rest)), nil
	case encLang, encTyped:
		n, w := binary.Uvarint(rest)
		if w <= 0 || uint64(len(rest)-w) < n {
			return rdf.Term{}, fmt.Errorf("term encoding %q: bad length", b)
		}
		tag := string(rest[w : w+int(n)])
		val := string(rest[w+int(n):])
		if b[0] == encLang {
			return rdf.LangLiteral(val, tag), nil
		}
		return rdf.Literal(val, tag), nil
	}
	return rdf.Term{}, fmt.Errorf("term encoding %q: unknown kind %q", b, b[0])
}
