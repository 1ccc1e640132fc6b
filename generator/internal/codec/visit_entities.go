package codec

import (
	"fmt"
	"slices"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// entityKind is one of Kafka's entity types with what the visitors need:
// the runtime.EntityType constant and the runtime.EntityVisitor function
// its fields are passed to, which takes a pointer to the field's kind.
type entityKind struct {
	spec     string // the spec's entityType
	constant string // the runtime.EntityType
	fn       string // the runtime.EntityVisitor function
	kind     schema.Kind
}

// entityKinds are the entity types visited, in runtime.EntityType order
// ("unknown" names no entity and is never visited).
var entityKinds = []entityKind{
	{"transactionalId", "EntityTransactionalID", "String", schema.KindString},
	{"producerId", "EntityProducerID", "Int64", schema.KindInt64},
	{"groupId", "EntityGroupID", "String", schema.KindString},
	{"topicName", "EntityTopicName", "String", schema.KindString},
	{"brokerId", "EntityBrokerID", "Int32", schema.KindInt32},
	topicIDKind,
}

// isEntity reports whether f's values are visited as e. Validation has
// checked that an entity field's type matches its entity type; a field
// whose type does not is left alone rather than mistyped.
func (e entityKind) isEntity(f *plan.Field) bool {
	return f.Schema.Type.Kind == e.kind && (f.Schema.EntityType == e.spec || e == topicIDKind && schema.IsTopicID(f.Schema))
}

// entitiesVisited lists the entity types of which s holds a field, itself
// or in the structs its fields hold, at some version its code runs.
func entitiesVisited(s *plan.Struct) []entityKind {
	var out []entityKind
	for _, e := range entityKinds {
		if visitsEntity(s, e, 0) {
			out = append(out, e)
		}
	}
	return out
}

// visitsEntity reports whether visiting e in s visits anything: a field of
// e, or a struct field whose struct visits e, present at some version.
func visitsEntity(s *plan.Struct, e entityKind, depth int) bool {
	if depth > maxVisitDepth {
		return false
	}
	for _, f := range s.Fields {
		if f.Present.Never() {
			continue
		}
		if e.isEntity(f) || f.Elem != nil && visitsEntity(f.Elem, e, depth+1) {
			return true
		}
	}
	return false
}

// entityVisits are the statements that visit e in the struct held by m, in
// field order, each under its field's presence.
func (p *printer) entityVisits(s *plan.Struct, e entityKind) []Code {
	var visits []guardedVisit
	for _, f := range s.Fields {
		var visit func(val *Statement) Code
		switch {
		case f.Present.Never():
			continue
		case e.isEntity(f):
			visit = func(val *Statement) Code { return Id("v").Dot(e.fn).Call(Op("&").Add(val)) }
		case f.Elem != nil && visitsEntity(f.Elem, e, 0):
			visit = func(val *Statement) Code {
				return val.Dot("visitEntities").Call(Id("version"), Id("t"), Id("v"))
			}
		default:
			continue
		}
		visits = append(visits, p.valueVisit(f, f.Present, visit))
	}
	return guardedBlocks(visits)
}

// emitVisitEntities writes a message's VisitEntities. With one entity type
// the early return tests it and its visitor function; with several, each
// case of a switch does.
func (p *printer) emitVisitEntities(f *File, s *plan.Struct) {
	params := []Code{Id("version").Int16(), Id("t").Add(gomodel.Rt("EntityType")), Id("v").Op("*").Add(gomodel.Rt("EntityVisitor"))}
	kinds := entitiesVisited(s)
	if len(kinds) == 0 {
		gomodel.DocCommentf(f, "VisitEntities visits nothing: %s has no field of an entity type\n(runtime.Entities).", p.TypeName(s))
		f.Func().Add(p.visitorRecv(s)).Id("VisitEntities").Params(params...).Block()
		f.Line()
		return
	}
	gomodel.DocComment(f, wrapDoc("VisitEntities calls v for every field of entity type t that m has at "+
		"version, in declaration order (runtime.Entities). "+entityPathsDoc(s, kinds)))
	var body []Code
	if len(kinds) == 1 {
		e := kinds[0]
		body = append(body, If(Id("t").Op("!=").Add(gomodel.Rt(e.constant)).Op("||").Add(versionGuard(s)).
			Op("||").Id("v").Dot(e.fn).Op("==").Nil()).Block(Return()))
		body = append(body, p.entityVisits(s, e)...)
	} else {
		var cases []Code
		for _, e := range kinds {
			test := Id("t").Op("==").Add(gomodel.Rt(e.constant)).Op("&&").Id("v").Dot(e.fn).Op("!=").Nil()
			cases = append(cases, Case(test).Block(p.entityVisits(s, e)...))
		}
		body = append(body, If(versionGuard(s)).Block(Return()), Switch().Block(cases...))
	}
	f.Func().Add(p.visitorRecv(s)).Id("VisitEntities").Params(params...).Block(body...)
	f.Line()
}

// emitNestedVisitEntities writes visitEntities of a struct reached through
// a field: VisitEntities has checked the version and v's function, and t is
// one of the entity types the struct holds.
func (p *printer) emitNestedVisitEntities(f *File, s *plan.Struct) {
	kinds := entitiesVisited(s)
	body := p.entityVisits(s, kinds[0])
	if len(kinds) > 1 {
		body = []Code{Switch(Id("t")).Block(p.entityCases(s, kinds)...)}
	}
	gomodel.DocComment(f, "visitEntities is VisitEntities on m's fields at the message's version,\nfor an entity type m holds (its parent calls it for those only).")
	f.Func().Add(p.visitorRecv(s)).Id("visitEntities").Params(
		Id("version").Int16(), Id("t").Add(gomodel.Rt("EntityType")), Id("v").Op("*").Add(gomodel.Rt("EntityVisitor")),
	).Block(body...)
	f.Line()
}

// entityCases are the cases of a switch on the entity types kinds, those
// with the same code (a loop over the same elements, often) joined.
func (p *printer) entityCases(s *plan.Struct, kinds []entityKind) []Code {
	var cases []Code
	var consts [][]Code
	var bodies []string
	for _, e := range kinds {
		stmts := p.entityVisits(s, e)
		body := fmt.Sprintf("%#v", Block(stmts...))
		if i := slices.Index(bodies, body); i >= 0 {
			consts[i] = append(consts[i], gomodel.Rt(e.constant))
			cases[i] = Case(consts[i]...).Block(stmts...)
			continue
		}
		bodies = append(bodies, body)
		consts = append(consts, []Code{gomodel.Rt(e.constant)})
		cases = append(cases, Case(gomodel.Rt(e.constant)).Block(stmts...))
	}
	return cases
}

// entityPathsDoc lists, for the doc comment, the spec paths of the fields
// visited of each entity type: "It visits topicName in Topics[].Name."
func entityPathsDoc(s *plan.Struct, kinds []entityKind) string {
	var parts []string
	for _, e := range kinds {
		parts = append(parts, e.spec+" in "+strings.Join(entityPaths(s, e, "", 0), ", "))
	}
	return "It visits " + strings.Join(parts, "; ") + "."
}

// entityPaths are the spec paths, under prefix, of the fields of e that
// s's visitor reaches.
func entityPaths(s *plan.Struct, e entityKind, prefix string, depth int) []string {
	var out []string
	for _, f := range s.Fields {
		if f.Present.Never() || depth > maxVisitDepth {
			continue
		}
		path := prefix + f.Schema.Name
		if f.Schema.Type.Array {
			path += "[]"
		}
		switch {
		case e.isEntity(f):
			out = append(out, path)
		case f.Elem != nil:
			out = append(out, entityPaths(f.Elem, e, path+".", depth+1)...)
		}
	}
	return out
}

// wrapDoc breaks a long doc sentence into lines of at most 76 characters.
func wrapDoc(text string) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > 76 {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}
