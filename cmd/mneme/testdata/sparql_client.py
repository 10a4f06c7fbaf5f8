"""Query a SPARQL endpoint with third-party clients and print the answers.

Usage: sparql_client.py ENDPOINT < requests.json
The requests are a JSON list of {"client", "query"}; client is "rdflib"
(rdflib's SPARQLStore, GET, JSON results) or "sparqlwrapper" (SPARQLWrapper,
POST form, XML results; Turtle for graphs). Prints a JSON list with one
answer per request: {"vars": [...], "rows": [[term|null, ...]]},
{"boolean": bool} or {"triples": [[s, p, o], ...]}, each term as
{"type": "uri"|"bnode"|"literal", "value", "lang", "datatype"}.
"""
import json
import sys

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from SPARQLWrapper import POST, SPARQLWrapper, TURTLE, XML


def term(t):
    if t is None:
        return None
    if isinstance(t, URIRef):
        return {"type": "uri", "value": str(t)}
    if isinstance(t, BNode):
        return {"type": "bnode", "value": str(t)}
    if isinstance(t, Literal):
        return {"type": "literal", "value": str(t), "lang": t.language or "",
                "datatype": str(t.datatype) if t.datatype else ""}
    raise TypeError(repr(t))


def answer(result):
    if result.type == "ASK":
        return {"boolean": bool(result.askAnswer)}
    if result.type in ("CONSTRUCT", "DESCRIBE"):
        return {"triples": [[term(x) for x in tr] for tr in result.graph]}
    return {"vars": [str(v) for v in result.vars],
            "rows": [[term(b.get(v)) for v in result.vars] for b in result.bindings]}


def with_rdflib(endpoint, query):
    store = SPARQLStore(endpoint, returnFormat="json", method="GET")
    return answer(Graph(store=store).query(query))


def with_sparqlwrapper(endpoint, query):
    sw = SPARQLWrapper(endpoint)
    sw.setMethod(POST)
    sw.setQuery(query)
    if sw.queryType in ("CONSTRUCT", "DESCRIBE"):
        sw.setReturnFormat(TURTLE)
        g = Graph()
        g.parse(data=sw.query().convert(), format="turtle")
        return {"triples": [[term(x) for x in tr] for tr in g]}
    sw.setReturnFormat(XML)
    from rdflib.query import Result
    res = sw.query()
    return answer(Result.parse(res.response, format="xml"))


def main():
    endpoint = sys.argv[1]
    clients = {"rdflib": with_rdflib, "sparqlwrapper": with_sparqlwrapper}
    answers = [clients[r["client"]](endpoint, r["query"]) for r in json.load(sys.stdin)]
    json.dump(answers, sys.stdout)


main()
