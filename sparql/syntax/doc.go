// Package syntax parses SPARQL 1.1 queries into a syntax tree: a
// hand-written lexer and recursive-descent parser for the full query
// grammar, with the static checks of the specification, reporting errors
// as "line:col: expected X, found Y".
package syntax
