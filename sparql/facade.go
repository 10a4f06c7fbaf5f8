package sparql

import (
	"github.com/mneme-archive/mneme/sparql/eval"
	"github.com/mneme-archive/mneme/sparql/parse"
)

// Form is a query form; its IsGraph method tells the forms that answer
// with triples.
type Form = parse.Form

// Query forms.
const (
	Select    = parse.Select
	Construct = parse.Construct
	Ask       = parse.Ask
	Describe  = parse.Describe
)

// SyntaxError is what Prepare fails with on a query that does not parse:
// the message with its line and column.
type SyntaxError = parse.Error

// ErrFederation is what a query with a SERVICE pattern fails with: mneme
// answers from its own store only.
var ErrFederation = eval.ErrFederation
