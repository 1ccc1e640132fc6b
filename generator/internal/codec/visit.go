package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// The entity and endpoint visitors (runtime.Entities, runtime.Endpoints):
// every message gets VisitEntities and VisitEndpoints, and every struct
// they reach through a field gets visitEntities or visitEndpoints, a
// method of its own, so that a common struct's code is printed once and
// no function nests deeper than its own struct. Fields are visited where
// the plan has them present (in place or tagged); conditions are settled
// against the versions the struct's code runs at, as the codec's are.
// Entity visits are in visit_entities.go, endpoints in visit_endpoints.go.

// maxVisitDepth bounds the walk over nested structs: validation rejects a
// struct that contains itself, so only a broken model reaches it.
const maxVisitDepth = 64

// emitVisitors writes the visitor methods of s: the exported ones on a
// message, the unexported ones on a struct that holds something to visit.
func (p *printer) emitVisitors(f *File, s *plan.Struct) {
	if s.Top {
		p.emitVisitEntities(f, s)
		p.emitVisitEndpoints(f, s)
		return
	}
	if len(entitiesVisited(s)) > 0 {
		p.emitNestedVisitEntities(f, s)
	}
	if visitsEndpoints(s, 0) {
		p.emitNestedVisitEndpoints(f, s)
	}
}

// guardedVisit is one statement of a visitor with the condition on the
// version under which it runs, and the test of the value it needs (a
// nullable value not null), or nil.
type guardedVisit struct {
	when plan.Cond
	test *Statement
	stmt Code
}

// guardedBlocks prints visits in order, one if statement for each run of
// consecutive visits under the same condition; a run of one visit with a
// value test joins the two tests in one if.
func guardedBlocks(visits []guardedVisit) []Code {
	var out []Code
	for i := 0; i < len(visits); {
		j := i
		var stmts []Code
		for ; j < len(visits) && visits[j].when == visits[i].when; j++ {
			stmts = append(stmts, visits[j].code())
		}
		first := visits[i]
		switch {
		case j == i+1 && first.test != nil && !first.when.Static():
			out = append(out, If(gomodel.CondExpr(first.when).Op("&&").Add(first.test)).Block(first.stmt))
		default:
			out = append(out, gomodel.Guarded(first.when, func() []Code { return stmts })...)
		}
		i = j
	}
	return out
}

// code is the visit under its value test.
func (g guardedVisit) code() Code {
	if g.test == nil {
		return g.stmt
	}
	return If(g.test).Block(g.stmt)
}

// valueVisit is the visit of the value of the field f of the struct held
// by m, under the condition when: visit applies to every element of an
// array, to the value of a nullable string that is not null, to a nullable
// struct that is not nil, else to the field itself. visit receives the
// value as an addressable expression.
func (p *printer) valueVisit(f *plan.Field, when plan.Cond, visit func(val *Statement) Code) guardedVisit {
	val := Id("m").Dot(p.FieldName(f))
	t := f.Schema.Type
	nullable := f.Schema.Nullable()
	switch {
	case t.Array:
		return guardedVisit{when: when, stmt: For(Id("i").Op(":=").Range().Add(val.Clone())).Block(visit(val.Clone().Index(Id("i"))))}
	case nullable && t.Kind == schema.KindString:
		return guardedVisit{when, val.Clone().Dot("Valid"), visit(val.Clone().Dot("Value"))}
	case nullable && t.Kind == schema.KindStruct:
		return guardedVisit{when, val.Clone().Op("!=").Nil(), visit(val.Clone())}
	}
	return guardedVisit{when: when, stmt: visit(val)}
}

// versionGuard is the test that returns early from a message's visitor at
// a version the message does not have, as its codec refuses those; one
// version is tested as version != N.
func versionGuard(s *plan.Struct) *Statement {
	return gomodel.NotInVersions(s.Within)
}

// visitorRecv is the receiver of a visitor method of s.
func (p *printer) visitorRecv(s *plan.Struct) *Statement {
	return Params(Id("m").Op("*").Id(p.TypeName(s)))
}

// emitVisitorAssertion writes the compile-time proof that every message of
// the package implements runtime.Entities and runtime.Endpoints.
func emitVisitorAssertion(f *File, n *gomodel.Names) {
	var messages []Code
	for _, sf := range n.Files {
		messages = append(messages, Line().Parens(Op("*").Id(n.TypeName(sf.Spec.Root))).Parens(Nil()))
	}
	f.Line()
	gomodel.DocComment(f, "Every message can be visited by the entities its fields name and by the\nbroker addresses it holds.")
	f.Var().Id("_").Op("=").Index(Op("...")).Interface(gomodel.Rt("Entities"), gomodel.Rt("Endpoints")).Values(append(messages, Line())...)
}
