// Package endpoint serves SPARQL 1.1 Protocol queries over HTTP from a
// mneme store, read-only: GET and POST (URL-encoded form or a direct
// application/sparql-query body), content negotiation by Accept header or
// the format/output parameters, the dataset from default-graph-uri and
// named-graph-uri (over the query's FROM and FROM NAMED). Each query
// reads its own snapshot of the store.
//
// It is built to stay responsive under hostile or careless clients:
//   - a timeout per query, from its arrival to its last byte;
//   - limits on a query's size and triple patterns (400 beyond them);
//   - admission by the planner's cost estimate: cheap and expensive
//     queries run in slots of their own, so that cheap ones never wait
//     behind expensive ones; a query finding no free slot waits in a
//     bounded queue, where a freed slot goes to the client (IP address)
//     served least recently; when the queue is full, 503 with Retry-After;
//   - a read deadline for the request and write deadlines that move while
//     the client reads: a client that stops reading for WriteStall ends
//     its query and frees its slot;
//   - cancellation when the client goes away;
//   - bounded memory: at most Config.Query.MaxRows rows held per query,
//     beyond which sorting, grouping and DISTINCT spill to files.
//
// A failure before the result starts gets its own status (503 for a
// timeout). Results are held back for up to 256 KiB or 250 ms so that
// most failures still can. A failure after the status was sent ends the
// body with the line
//
//	#mneme-error: MESSAGE; the result above is incomplete
//
// (after two newlines) and aborts the connection without the final
// chunk of the chunked body: HTTP clients report an incomplete transfer,
// a JSON or XML result no longer parses, and a CSV or TSV one ends with
// that line.
package endpoint
