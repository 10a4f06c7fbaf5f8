#!/usr/bin/env bash
# Installs the third-party SPARQL clients cmd/mneme's endpoint test drives:
# rdflib (SPARQLStore) and SPARQLWrapper from Debian (python3-rdflib pulls
# in python3-sparqlwrapper). The test finds them through python3 or
# /usr/bin/python3 and skips, saying so, when neither imports them.
set -euo pipefail
if ! /usr/bin/python3 -c 'import rdflib, SPARQLWrapper' 2>/dev/null; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-rdflib python3-sparqlwrapper >/dev/null
fi
