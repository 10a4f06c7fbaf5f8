// Package sparql is the root of mneme's SPARQL 1.1 query engine, laid out
// as a pipeline of sub-packages: syntax (lexer, parser, static checks)
// produces a syntax tree, algebra translates it to the SPARQL algebra of
// §18 and prints it, and later stages optimize and evaluate the algebra.
package sparql
