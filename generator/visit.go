package generator

import (
	. "github.com/dave/jennifer/jen"

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

// emitVisitors writes the visitor methods of sm: the exported ones on a
// message, the unexported ones on a struct that holds something to visit.
func emitVisitors(f *File, sm *structModel) {
	if sm.top {
		emitVisitEntities(f, sm)
		emitVisitEndpoints(f, sm)
		return
	}
	if len(entitiesVisited(sm)) > 0 {
		emitNestedVisitEntities(f, sm)
	}
	if visitsEndpoints(sm, 0) {
		emitNestedVisitEndpoints(f, sm)
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
			out = append(out, If(condExpr(first.when).Op("&&").Add(first.test)).Block(first.stmt))
		default:
			out = append(out, guarded(first.when, stmts...)...)
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

// valueVisit is the visit of the value of the field fm of the struct held
// by recv, under the field's presence: visit applies to every element of
// an array, to the value of a nullable string that is not null, to a
// nullable struct that is not nil, else to the field itself. visit
// receives the value as an addressable expression.
func valueVisit(fm *fieldModel, when plan.Cond, recv *Statement, visit func(val *Statement) Code) guardedVisit {
	val := recv.Clone().Dot(fm.goName)
	t := fm.f.Type
	switch {
	case t.Array:
		return guardedVisit{when: when, stmt: For(Id("i").Op(":=").Range().Add(val.Clone())).Block(visit(val.Clone().Index(Id("i"))))}
	case fm.nullable && t.Kind == schema.KindString:
		return guardedVisit{when, val.Clone().Dot("Valid"), visit(val.Clone().Dot("Value"))}
	case fm.nullable && t.Kind == schema.KindStruct:
		return guardedVisit{when, val.Clone().Op("!=").Nil(), visit(val.Clone())}
	}
	return guardedVisit{when: when, stmt: visit(val)}
}

// versionGuard is the test that returns early from a message's visitor at
// a version the message does not have, as its codec refuses those.
func versionGuard(sm *structModel) *Statement {
	vs := sm.p.Within
	if vs.Lo == vs.Hi {
		return Id("version").Op("!=").Lit(int(vs.Lo))
	}
	return Id("version").Op("<").Lit(int(vs.Lo)).Op("||").Id("version").Op(">").Lit(int(vs.Hi))
}

// visitorRecv is the receiver of a visitor method of sm.
func visitorRecv(sm *structModel) *Statement { return Params(Id("m").Op("*").Id(sm.goName)) }

// emitVisitorAssertion writes the compile-time proof that every message of
// the package implements runtime.Entities and runtime.Endpoints.
func emitVisitorAssertion(f *File, pm *pkgModel) {
	var messages []Code
	for _, fm := range pm.files {
		messages = append(messages, Line().Parens(Op("*").Id(fm.top.goName)).Parens(Nil()))
	}
	f.Line()
	docComment(f, "Every message can be visited by the entities its fields name and by the\nbroker addresses it holds.")
	f.Var().Id("_").Op("=").Index(Op("...")).Interface(rt("Entities"), rt("Endpoints")).Values(append(messages, Line())...)
}
