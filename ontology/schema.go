package ontology

// Namespaces of the vocabularies mneme.ttl is written in.
const (
	RDFSNS = "http://www.w3.org/2000/01/rdf-schema#"
	OWLNS  = "http://www.w3.org/2002/07/owl#"
)

// RDFS and OWL terms that define the mneme: terms in mneme.ttl.
const (
	RDFSLabel         = RDFSNS + "label"
	RDFSComment       = RDFSNS + "comment"
	RDFSDomain        = RDFSNS + "domain"
	RDFSRange         = RDFSNS + "range"
	RDFSSubClassOf    = RDFSNS + "subClassOf"
	RDFSSubPropertyOf = RDFSNS + "subPropertyOf"
	RDFSIsDefinedBy   = RDFSNS + "isDefinedBy"

	OWLOntology         = OWLNS + "Ontology"
	OWLClass            = OWLNS + "Class"
	OWLObjectProperty   = OWLNS + "ObjectProperty"
	OWLDatatypeProperty = OWLNS + "DatatypeProperty"
	OWLNamedIndividual  = OWLNS + "NamedIndividual"
	OWLVersionInfo      = OWLNS + "versionInfo"
)
