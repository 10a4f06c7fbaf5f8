package rdf

// Namespaces and terms of the core vocabularies the RDF 1.1 model itself
// refers to (literal datatypes, rdf:type, list terms).
const (
	RDFNS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	XSDNS = "http://www.w3.org/2001/XMLSchema#"

	RDFType       = RDFNS + "type"
	RDFFirst      = RDFNS + "first"
	RDFRest       = RDFNS + "rest"
	RDFNil        = RDFNS + "nil"
	RDFLangString = RDFNS + "langString"

	XSDString   = XSDNS + "string"
	XSDBoolean  = XSDNS + "boolean"
	XSDInteger  = XSDNS + "integer"
	XSDDecimal  = XSDNS + "decimal"
	XSDDouble   = XSDNS + "double"
	XSDDateTime = XSDNS + "dateTime"
	XSDDate     = XSDNS + "date"
)
