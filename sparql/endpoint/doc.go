// Package endpoint serves SPARQL 1.1 Protocol queries over HTTP from a
// mneme store, read-only: GET and POST (URL-encoded form or a direct
// application/sparql-query body), content negotiation by Accept header or
// the format/output parameters, the dataset from default-graph-uri and
// named-graph-uri (over the query's FROM and FROM NAMED), a timeout per
// query, a bound on running queries and on result size, and cancellation
// when the client goes away. Each query reads its own snapshot of the
// store.
package endpoint
