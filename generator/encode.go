package generator

import (
	"fmt"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// emitAppend writes appendTo(b, version): fields in declaration order, the
// tag section in tag order with unknown tags last, and Java's write errors
// for values the version cannot carry.
func emitAppend(f *Group, sm *structModel, calls map[*structModel]bool) error {
	body, usesErr, err := appendBody(sm, methodCtx(sm, calls))
	if err != nil {
		return err
	}
	if usesErr {
		body = append([]Code{Var().Err().Error()}, body...)
	}
	body = append(body, Return(Id("b"), Nil()))
	f.Func().Params(Id("m").Op("*").Id(sm.goName)).Id("appendTo").Params(Id("b").Index().Byte(), Id("version").Int16()).Params(Index().Byte(), Error()).Block(body...)
	f.Line()
	return nil
}

// appendBody writes the struct held by cx.recv; usesErr reports whether the
// code assigns the method's err variable.
func appendBody(sm *structModel, cx *emitCtx) (body []Code, usesErr bool, err error) {
	body = append(body, cx.declareFlexible(sm)...)
	runs := fixedRuns(sm)
	groups := fixedGroups(sm)
	groupEnd := -1 // fields before this index were written by a group
	for i := 0; i < len(sm.fields); i++ {
		fm := sm.fields[i]
		if g := groups[i]; g != nil {
			code, err := g.write(sm, cx)
			if err != nil {
				return nil, false, err
			}
			body = append(body, code)
			groupEnd = i + len(g.fields)
		}
		if run := runs[i]; len(run) > 1 && i >= groupEnd {
			body = append(body, writeRun(run, cx))
			i += len(run) - 1
			continue
		}
		val := cx.r().Dot(fm.goName)
		absentCond, pNever, pAlways := notVerCond(fm.f.Versions, fm.owner.within())
		inline, iAlways, iNever := fm.inlineCond()
		var absent Code
		if !pAlways && !fm.f.Ignorable {
			nonDef, err := fm.notDefault(val.Clone())
			if err != nil {
				return nil, false, err
			}
			fail := cx.encodeErr(rt("NonDefaultError").Call(Lit(fm.f.Name), Id("version")))
			if pNever {
				absent = If(nonDef).Block(fail)
			} else {
				absent = If(Parens(absentCond).Op("&&").Parens(nonDef)).Block(fail)
			}
		}
		var write []Code
		if !iNever && i >= groupEnd {
			w, e := appendValue(fm, val.Clone(), fm.compactExpr(), false, cx)
			write = w
			usesErr = usesErr || e
		}
		switch {
		case iAlways:
			body = append(body, write...)
		case !iNever && len(write) > 0:
			body = append(body, If(inline).Block(write...))
		}
		if absent != nil {
			body = append(body, absent)
		}
	}
	if sm.hasTags {
		var count []Code
		var writes []Code
		count = append(count, Id("numTags").Op(":=").Len(cx.r().Dot("UnknownTags")))
		for _, fm := range sm.tagged {
			c, always, never := fm.tagSectionCond()
			if never {
				continue
			}
			val := cx.r().Dot(fm.goName)
			cond, err := fm.notDefault(val.Clone())
			if err != nil {
				return nil, false, err
			}
			if !always {
				cond = Parens(c).Op("&&").Parens(cond)
			}
			// Whether the field is written is decided once: it is needed
			// for the count and again for the write.
			has := Id(fmt.Sprintf("hasTag%d", fm.f.Tag))
			count = append(count,
				has.Clone().Op(":=").Add(cond),
				If(has.Clone()).Block(Id("numTags").Op("++")))
			cond = has
			payload, e := appendValue(fm, val.Clone(), True(), true, cx)
			usesErr = usesErr || e
			w := []Code{Id("b").Op("=").Add(rt("AppendUvarint")).Call(Id("b"), Lit(fm.f.Tag))}
			if width := fm.fixedWidth(); width > 0 {
				w = append(w, Id("b").Op("=").Add(rt("AppendUvarint")).Call(Id("b"), Lit(width)))
			} else {
				w = append(w, Var().Id("sz").Int())
				w = append(w, valueSize(fm, val.Clone(), True(), true, "sz", cx)...)
				w = append(w, Id("b").Op("=").Add(rt("AppendUvarint")).Call(Id("b"), Uint32().Call(Id("sz"))))
			}
			w = append(w, payload...)
			writes = append(writes, If(cond).Block(w...))
		}
		unknown := cx.r().Dot("UnknownTags")
		var tags []Code
		if len(writes) == 0 {
			// No known tagged field: the section is one zero byte unless
			// unknown tags were kept.
			tags = []Code{If(Len(unknown.Clone()).Op("==").Lit(0)).Block(
				Id("b").Op("=").Append(Id("b"), Lit(0)),
			).Else().Block(
				If(List(Id("b"), Err()).Op("=").Add(rt("AppendTagSection")).Call(Id("b"), unknown.Clone(), Lit(sm.maxTag)), Err().Op("!=").Nil()).Block(cx.encodeErr(Err())),
			)}
			usesErr = usesErr || sm.flexibleExpr().GoString() != "false"
		} else {
			tags = append([]Code{
				If(Len(unknown.Clone()).Op(">").Lit(0)).Block(
					If(Err().Op(":=").Add(unknown.Clone()).Dot("Check").Call(Lit(sm.maxTag)), Err().Op("!=").Nil()).Block(cx.encodeErr(Err())),
				),
			}, count...)
			tags = append(tags, Id("b").Op("=").Add(rt("AppendUvarint")).Call(Id("b"), Uint32().Call(Id("numTags"))))
			tags = append(tags, writes...)
			tags = append(tags, If(Len(unknown.Clone()).Op(">").Lit(0)).Block(Id("b").Op("=").Add(rt("AppendTags")).Call(Id("b"), unknown.Clone())))
		}
		notFlexible := If(Len(cx.r().Dot("UnknownTags")).Op(">").Lit(0)).Block(
			cx.encodeErr(rt("EncodeError").Call(Lit(""), rt("ErrTaggedFields"), Lit(""))),
		)
		switch fc := sm.flexibleExpr(); fc.GoString() {
		case "true":
			body = append(body, tags...)
		case "false":
			body = append(body, notFlexible)
		default:
			body = append(body, If(fc).Block(tags...).Else().Block(notFlexible))
		}
	}
	return body, usesErr, nil
}

// appendValue writes one field value. usesErr reports whether the code
// assigns the function's err variable.
// With a context, struct values and array elements are inlined.
func appendValue(fm *fieldModel, val *Statement, compact *Statement, tagged bool, cx *emitCtx) (code []Code, usesErr bool) {
	t := fm.f.Type
	name := fm.f.Name
	fail := func(sentinel string) Code {
		return cx.encodeErr(rt("EncodeError").Call(Lit(name), rt(sentinel), Lit("")))
	}
	// nullGuard rejects null at versions where the field is not nullable.
	nullGuard := func(isNull *Statement) []Code {
		c, always, never := fm.nullableCond()
		switch {
		case always:
			return nil
		case never:
			return []Code{If(isNull).Block(fail("ErrNull"))}
		}
		return []Code{If(Op("!").Parens(c).Op("&&").Add(isNull)).Block(fail("ErrNull"))}
	}
	strCheck := func(s *Statement) Code {
		return If(Len(s).Op(">").Add(rt("MaxStringLen"))).Block(fail("ErrStringTooLong"))
	}
	if t.Array {
		var out []Code
		if fm.nullable {
			out = append(out, nullGuard(Add(val).Op("==").Nil())...)
			out = append(out, If(Add(val).Op("==").Nil()).Block(
				Id("b").Op("=").Add(rt("AppendArrayLen")).Call(Id("b"), Lit(-1), compact),
			).Else().Block(Id("b").Op("=").Add(rt("AppendArrayLen")).Call(Id("b"), Len(val), compact)))
		} else {
			out = append(out, Id("b").Op("=").Add(rt("AppendArrayLen")).Call(Id("b"), Len(val), compact))
		}
		switch t.Kind {
		case schema.KindString:
			out = append(out, For(List(Id("_"), Id("e")).Op(":=").Range().Add(val)).Block(
				strCheck(Id("e")),
				Id("b").Op("=").Add(rt("AppendString")).Call(Id("b"), Id("e"), compact),
			))
		case schema.KindBytes, schema.KindRecords:
			out = append(out, For(List(Id("_"), Id("e")).Op(":=").Range().Add(val)).Block(
				Id("b").Op("=").Add(rt("AppendBytes")).Call(Id("b"), Id("e"), compact),
			))
		case schema.KindStruct:
			if !tagged && cx.canInline(fm.elem) {
				iv := cx.index()
				child := cx.child(fm.elem, name, iv)
				if body, e, err := appendBody(fm.elem, child); err == nil {
					out = append(out, For(Id(iv).Op(":=").Range().Add(val)).Block(bindIfUsed(child.recv, Add(val).Index(Id(iv)), body)...))
					return out, e
				}
			}
			cx.call(fm.elem)
			out = append(out, For(Id("i").Op(":=").Range().Add(val)).Block(
				If(List(Id("b"), Err()).Op("=").Add(val).Index(Id("i")).Dot("appendTo").Call(Id("b"), Id("version")), Err().Op("!=").Nil()).Block(
					cx.encodeErr(rt("WithinElem").Call(Err(), Lit(name), Id("i"))),
				),
			))
			return out, true
		default:
			out = append(out, For(List(Id("_"), Id("e")).Op(":=").Range().Add(val)).Block(
				Id("b").Op("=").Add(appendPrimitive(t.Kind, Id("e"))),
			))
		}
		return out, false
	}
	switch t.Kind {
	case schema.KindString:
		if fm.nullable {
			out := nullGuard(Op("!").Add(val).Dot("Valid"))
			out = append(out, If(Add(val).Dot("Valid")).Block(
				strCheck(Add(val).Dot("Value")),
				Id("b").Op("=").Add(rt("AppendString")).Call(Id("b"), Add(val).Dot("Value"), compact),
			).Else().Block(
				Id("b").Op("=").Add(rt("AppendNullMarker")).Call(Id("b"), compact, False()),
			))
			return out, false
		}
		return []Code{strCheck(val), Id("b").Op("=").Add(rt("AppendString")).Call(Id("b"), val, compact)}, false
	case schema.KindBytes, schema.KindRecords:
		if fm.nullable {
			out := nullGuard(Add(val).Op("==").Nil())
			return append(out, If(Add(val).Op("==").Nil()).Block(
				Id("b").Op("=").Add(rt("AppendNullMarker")).Call(Id("b"), compact, True()),
			).Else().Block(
				Id("b").Op("=").Add(rt("AppendBytes")).Call(Id("b"), val, compact),
			)), false
		}
		return []Code{Id("b").Op("=").Add(rt("AppendBytes")).Call(Id("b"), val, compact)}, false
	case schema.KindStruct:
		call := If(List(Id("b"), Err()).Op("=").Add(val).Dot("appendTo").Call(Id("b"), Id("version")), Err().Op("!=").Nil()).Block(
			cx.encodeErr(rt("Within").Call(Err(), Lit(name))),
		)
		if !fm.nullable && !tagged && cx.canInline(fm.elem) {
			child := cx.child(fm.elem, name, "")
			if body, e, err := appendBody(fm.elem, child); err == nil {
				return []Code{Block(bindIfUsed(child.recv, val, body)...)}, e
			}
		}
		cx.call(fm.elem)
		if !fm.nullable {
			return []Code{call}, true
		}
		c, always, never := fm.nullableCond()
		null, present := Lit(0xff), Lit(1) // the int8 marker
		if tagged {
			null = Lit(0) // a tagged struct's marker is a uvarint
		}
		switch {
		case never:
			return []Code{If(Add(val).Op("==").Nil()).Block(fail("ErrNull")), call}, true
		case always:
			return []Code{If(Add(val).Op("==").Nil()).Block(
				Id("b").Op("=").Append(Id("b"), null),
			).Else().Block(Id("b").Op("=").Append(Id("b"), present), call)}, true
		}
		return []Code{
			If(Add(val).Op("==").Nil()).Block(
				If(Op("!").Parens(c.Clone())).Block(fail("ErrNull")),
				Id("b").Op("=").Append(Id("b"), null),
			).Else().Block(
				If(c).Block(Id("b").Op("=").Append(Id("b"), present)),
				call,
			),
		}, true
	}
	return []Code{Id("b").Op("=").Add(appendPrimitive(t.Kind, val))}, false
}

// writeRun writes a run of fixed-width fields with one capacity check.
func writeRun(run []*fieldModel, cx *emitCtx) Code {
	width := 0
	for _, fm := range run {
		width += fm.fixedWidth()
	}
	stmts := []Code{
		Var().Id("p").Index().Byte(),
		List(Id("b"), Id("p")).Op("=").Add(rt("Extend")).Call(Id("b"), Lit(width)),
		Id("_").Op("=").Id("p").Index(Lit(width - 1)),
	}
	off := 0
	for _, fm := range run {
		stmts = append(stmts, encodeFixed(fm.kind(), off, cx.r().Dot(fm.goName)))
		off += fm.fixedWidth()
	}
	return Block(stmts...)
}

// encodeFixed writes a fixed-width value at offset off of p.
func encodeFixed(k schema.Kind, off int, val *Statement) Code {
	be := func(fn string, v Code) Code {
		return Qual("encoding/binary", "BigEndian").Dot(fn).Call(Id("p").Index(Lit(off).Op(":")), v)
	}
	switch k {
	case schema.KindBool:
		return Id("p").Index(Lit(off)).Op("=").Add(rt("Bool8")).Call(val)
	case schema.KindInt8:
		return Id("p").Index(Lit(off)).Op("=").Byte().Call(val)
	case schema.KindInt16, schema.KindUint16:
		return be("PutUint16", Uint16().Call(val))
	case schema.KindInt32, schema.KindUint32:
		return be("PutUint32", Uint32().Call(val))
	case schema.KindInt64:
		return be("PutUint64", Uint64().Call(val))
	case schema.KindFloat64:
		return be("PutUint64", Qual("math", "Float64bits").Call(val))
	case schema.KindUUID:
		return Copy(Id("p").Index(Lit(off).Op(":").Lit(off+16)), Add(val).Index(Op(":")))
	}
	panic("not a fixed-width kind: " + k.String())
}

func appendPrimitive(k schema.Kind, val *Statement) *Statement {
	fn := map[schema.Kind]string{
		schema.KindBool: "AppendBool", schema.KindInt8: "AppendInt8", schema.KindInt16: "AppendInt16",
		schema.KindUint16: "AppendUint16", schema.KindInt32: "AppendInt32", schema.KindUint32: "AppendUint32",
		schema.KindInt64: "AppendInt64", schema.KindFloat64: "AppendFloat64", schema.KindUUID: "AppendUUID",
	}[k]
	return rt(fn).Call(Id("b"), val)
}
