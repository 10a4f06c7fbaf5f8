package rdf

import "testing"

func TestTermString(t *testing.T) {
	cases := []struct {
		t    Term
		want string
	}{
		{IRI("http://e.org/a b"), `<http://e.org/a\u0020b>`},
		{Blank("b0"), "_:b0"},
		{String("say \"hi\"\n\t\x01"), `"say \"hi\"\n\t\u0001"`},
		{LangLiteral("chat", "fr"), `"chat"@fr`},
		{Literal("1", XSDInteger), `"1"^^<http://www.w3.org/2001/XMLSchema#integer>`},
		{Literal("x", ""), `"x"`},
		{Term{}, ""},
	}
	for _, c := range cases {
		if got := c.t.String(); got != c.want {
			t.Errorf("%#v.String() = %s, want %s", c.t, got, c.want)
		}
	}
}

func TestQuadString(t *testing.T) {
	q := Quad{S: IRI("s"), P: IRI("p"), O: String("o"), G: IRI("g")}
	if got, want := q.String(), `<s> <p> "o" <g> .`; got != want {
		t.Errorf("got %s want %s", got, want)
	}
	if got, want := q.Triple().String(), `<s> <p> "o" .`; got != want {
		t.Errorf("got %s want %s", got, want)
	}
}

func TestValidate(t *testing.T) {
	bad := []Quad{
		{S: String("s"), P: IRI("p"), O: IRI("o")},
		{S: IRI("s"), P: Blank("p"), O: IRI("o")},
		{S: IRI("s"), P: IRI("p")},
		{S: IRI("s"), P: IRI("p"), O: IRI("o"), G: String("g")},
		{S: IRI("s"), P: IRI("p"), O: Term{Kind: KindLiteral, Value: "x", Datatype: XSDString, Lang: "en"}},
		{S: IRI("s"), P: IRI("p"), O: Term{Kind: KindLiteral, Value: "x", Datatype: RDFLangString}},
		{S: IRI("s\xff"), P: IRI("p"), O: IRI("o")},
	}
	for _, q := range bad {
		if q.Validate() == nil {
			t.Errorf("Validate(%#v) = nil, want error", q)
		}
	}
	good := Quad{S: Blank("s"), P: IRI("p"), O: LangLiteral("x", "en"), G: Blank("g")}
	if err := good.Validate(); err != nil {
		t.Errorf("Validate(good) = %v", err)
	}
}

func TestCloneSharesNothing(t *testing.T) {
	buf := []byte("http://example.org/x")
	q := Quad{S: IRI(string(buf)), P: IRI("p"), O: Literal("v", "http://example.org/dt")}
	c := q.Clone()
	if c != q {
		t.Fatalf("clone differs: %v vs %v", c, q)
	}
}
