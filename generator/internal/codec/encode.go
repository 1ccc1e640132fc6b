package codec

import (
	"fmt"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
)

// emitAppend writes appendTo(b, version): the steps of the plan in wire
// order, each field that a version lacks checked for its default (Java's
// write error), then the tag section in tag order with unknown tags last.
func (p *printer) emitAppend(g *Group, s *plan.Struct) {
	sc := p.methodScope(s)
	code := appendBody(s, sc)
	body := lengthsDecl(s, sc.uses)
	if sc.uses.runBuffer {
		body = append(body, Var().Id("p").Index().Byte())
	}
	if sc.uses.err {
		body = append(body, Var().Err().Error())
	}
	body = append(body, code...)
	body = append(body, Return(Id("b"), Nil()))
	g.Func().Params(Id("m").Op("*").Id(p.TypeName(s))).Id("appendTo").Params(Id("b").Index().Byte(), Id("version").Int16()).Params(Index().Byte(), Error()).Block(body...)
	g.Line()
}

// encodeErr returns err from appendTo, naming the array element an inlined
// struct is.
func (s scope) encodeErr(err *Statement) Code {
	if s.array != nil {
		err = gomodel.Cd("WithinElem").Call(err, Lit(s.array.Schema.Name), Id("i"))
	}
	return Return(Id("b"), err)
}

// appendBody writes the struct held by sc.recv.
func appendBody(s *plan.Struct, sc scope) []Code {
	var body []Code
	for _, st := range s.Steps {
		if st.Run {
			body = append(body, gomodel.Guarded(st.When, func() []Code { return writeRun(st, sc) })...)
		} else {
			f := st.Fields[0]
			body = append(body, gomodel.Guarded(st.When, func() []Code { return appendValue(f, sc.val(f), false, sc) })...)
		}
		for _, f := range st.Fields {
			body = append(body, nonDefaultCheck(f, sc)...)
		}
	}
	if s.HasTags {
		body = append(body, appendTagSection(s, sc)...)
	}
	return body
}

// nonDefaultCheck fails, as Java does, when a field that is not ignorable
// holds a value other than its default at a version that lacks it.
func nonDefaultCheck(p *plan.Field, sc scope) []Code {
	if p.Schema.Ignorable || p.Present.Always() {
		return nil
	}
	cond := gomodel.NotDefault(p.Schema, sc.val(p))
	if !p.Present.Never() {
		cond = Parens(gomodel.NotCondExpr(p.Present)).Op("&&").Parens(cond)
	}
	fix := Lit(sc.AbsentFix(p))
	return []Code{If(cond).Block(sc.encodeErr(gomodel.Cd("AbsentFieldError").Call(Lit(p.Schema.Name), Id("version"), fix)))}
}

// writeRun writes a run of fixed-width fields: one Append call for a single
// field, else one capacity check (runtime.Extend) for the whole run.
func writeRun(st plan.Step, sc scope) []Code {
	if len(st.Fields) == 1 {
		f := st.Fields[0]
		return []Code{Id("b").Op("=").Add(sc.write("Append"+primitiveKinds[f.Schema.Type.Kind], Id("b"), sc.val(f)))}
	}
	width := 0
	for _, f := range st.Fields {
		width += f.Width
	}
	sc.uses.runBuffer = true
	out := []Code{
		List(Id("b"), Id("p")).Op("=").Add(sc.call(gomodel.Cd("Extend"), "ExtendNoInline", Id("b"), Lit(width))),
		Id("_").Op("=").Id("p").Index(Lit(width - 1)),
	}
	off := 0
	for _, f := range st.Fields {
		out = append(out, encodeFixed(f.Schema.Type.Kind, off, sc.val(f)))
		off += f.Width
	}
	return out
}

// appendTagSection writes the tag section where the version is flexible,
// and fails where it is not but unknown tags are set.
func appendTagSection(s *plan.Struct, sc scope) []Code {
	unknown := sc.r().Dot("UnknownTags")
	f := s.Flexible
	notFlexible := If(Len(unknown.Clone()).Op(">").Lit(0)).Block(
		sc.encodeErr(gomodel.Cd("TaggedFieldsError").Call()),
	)
	if f.Never() {
		return []Code{notFlexible}
	}
	if len(s.Tagged) > 0 {
		section := appendKnownTags(s, sc)
		if f.Always() {
			return section
		}
		return []Code{If(gomodel.CondExpr(f)).Block(section...).Else().Add(notFlexible)}
	}
	// Unknown tags only: AppendUnknownTags writes them, and fails where the
	// version has no tag section. Where the code runs once per array
	// element, an empty section (a single zero byte) is written inline.
	empty := Len(unknown).Op("==").Lit(0)
	lengths := gomodel.Cd("Compact")
	if !f.Always() {
		empty = empty.Op("&&").Add(gomodel.CondExpr(f))
		lengths = gomodel.Cd("Lengths").Call(gomodel.CondExpr(f))
	}
	write := If(sc.assignErr().Add(gomodel.Cd("AppendUnknownTags")).Call(Id("b"), unknown.Clone(), Lit(s.MaxTag), lengths), Err().Op("!=").Nil()).Block(
		sc.encodeErr(Err()),
	)
	if !sc.hot {
		return []Code{write}
	}
	return []Code{If(empty).Block(
		Id("b").Op("=").Append(Id("b"), Lit(0)),
	).Else().Add(write)}
}

// appendKnownTags writes a tag section with known tagged fields: the count,
// each field that differs from its default (decided once, as hasTagN), then
// the unknown ones, after checking their order.
func appendKnownTags(s *plan.Struct, sc scope) []Code {
	unknown := sc.r().Dot("UnknownTags")
	out := []Code{
		If(Len(unknown).Op(">").Lit(0)).Block(
			If(Err().Op(":=").Add(gomodel.Cd("CheckTags")).Call(unknown.Clone(), Lit(s.MaxTag)), Err().Op("!=").Nil()).Block(sc.encodeErr(Err())),
		),
		Id("numTags").Op(":=").Len(unknown.Clone()),
	}
	var writes []Code
	for _, p := range s.Tagged {
		if p.Tagged.Never() {
			continue
		}
		tag := p.Schema.Tag
		val := sc.val(p)
		cond := gomodel.NotDefault(p.Schema, val.Clone())
		if !p.Tagged.Always() {
			cond = Parens(gomodel.CondExpr(p.Tagged)).Op("&&").Parens(cond)
		}
		has := Id(fmt.Sprintf("hasTag%d", tag))
		out = append(out, has.Clone().Op(":=").Add(cond), If(has.Clone()).Block(Id("numTags").Op("++")))
		uvarint := func(v Code) Code {
			return Id("b").Op("=").Add(sc.call(Qual("encoding/binary", "AppendUvarint"), "AppendUvarintNoInline", Id("b"), v))
		}
		var w []Code
		switch {
		case p.Width > 0 && tag < 0x80 && p.Width < 0x80:
			// Both are one byte.
			w = []Code{Id("b").Op("=").Append(Id("b"), Lit(tag), Lit(p.Width))}
		case p.Width > 0:
			w = []Code{uvarint(Lit(tag)), uvarint(Lit(p.Width))}
		default:
			w = []Code{uvarint(Lit(tag)), Id("sz").Op(":=").Lit(0)}
			w = append(w, valueSize(p, val.Clone(), true, sc, "sz")...)
			w = append(w, uvarint(Uint64().Call(Id("sz"))))
		}
		w = append(w, appendValue(p, val.Clone(), true, sc)...)
		writes = append(writes, If(has.Clone()).Block(w...))
	}
	out = append(out, Id("b").Op("=").Add(sc.call(Qual("encoding/binary", "AppendUvarint"), "AppendUvarintNoInline", Id("b"), Uint64().Call(Id("numTags")))))
	out = append(out, writes...)
	return append(out, Id("b").Op("=").Add(gomodel.Cd("AppendTags")).Call(Id("b"), unknown.Clone()))
}
