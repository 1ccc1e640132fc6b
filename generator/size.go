package generator

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// emitSize writes size(version): the exact encoded length, computed without
// allocating. Fixed-width fields present at every version are summed at
// generation time.
func emitSize(f *Group, sm *structModel, calls map[*structModel]bool) error {
	body, err := sizeBody(sm, methodCtx(sm, calls), "n", true)
	if err != nil {
		return err
	}
	body = append(body, Return(Id("n")))
	f.Func().Params(Id("m").Op("*").Id(sm.goName)).Id("size").Params(Id("version").Int16()).Int().Block(body...)
	f.Line()
	return nil
}

// sizeBody adds the size of the struct held by cx.recv to acc, declaring acc
// when declare is set.
func sizeBody(sm *structModel, cx *emitCtx, acc string, declare bool) ([]Code, error) {
	var body []Code
	body = append(body, cx.declareFlexible(sm)...)
	fixed := 0
	var stmts []Code
	for _, fm := range sm.fields {
		c, always, never := fm.inlineCond()
		if never {
			continue
		}
		val := cx.r().Dot(fm.goName)
		if !fm.array() && fm.kind().FixedSize() > 0 {
			if always {
				fixed += fm.kind().FixedSize()
				continue
			}
			stmts = append(stmts, If(c).Block(Id(acc).Op("+=").Lit(fm.kind().FixedSize())))
			continue
		}
		s := valueSize(fm, val, fm.compactExpr(), false, acc, cx)
		if always {
			stmts = append(stmts, s...)
		} else {
			stmts = append(stmts, If(c).Block(s...))
		}
	}
	if declare {
		body = append(body, Id(acc).Op(":=").Lit(fixed))
	} else if fixed > 0 {
		body = append(body, Id(acc).Op("+=").Lit(fixed))
	}
	body = append(body, stmts...)
	if sm.hasTags && len(sm.tagged) == 0 {
		// No known tagged field: one zero byte unless unknown tags were kept.
		tagStmts := []Code{If(Len(cx.r().Dot("UnknownTags")).Op("==").Lit(0)).Block(
			Id(acc).Op("++"),
		).Else().Block(
			Id(acc).Op("+=").Add(cx.r()).Dot("UnknownTags").Dot("SectionSize").Call(),
		)}
		fc := sm.flexibleExpr()
		if fc.GoString() == "true" {
			body = append(body, tagStmts...)
		} else if fc.GoString() != "false" {
			body = append(body, If(fc).Block(tagStmts...))
		}
	} else if sm.hasTags {
		tagStmts := []Code{Id("numTags").Op(":=").Len(cx.r().Dot("UnknownTags"))}
		for _, fm := range sm.tagged {
			c, always, never := fm.tagSectionCond()
			if never {
				continue
			}
			nonDef, err := fm.notDefault(cx.r().Dot(fm.goName))
			if err != nil {
				return nil, err
			}
			var s []Code
			if width := fm.fixedWidth(); width > 0 {
				// tag, size and payload are all known at generation time.
				total := uvarintLen(uint32(fm.f.Tag)) + uvarintLen(uint32(width)) + width
				s = []Code{If(nonDef).Block(Id("numTags").Op("++"), Id(acc).Op("+=").Lit(total))}
			} else {
				s = []Code{If(nonDef).Block(
					append(append([]Code{Id("numTags").Op("++"), Var().Id("sz").Int()},
						valueSize(fm, cx.r().Dot(fm.goName), True(), true, "sz", cx)...),
						Id(acc).Op("+=").Lit(uvarintLen(uint32(fm.f.Tag))).Op("+").Add(rt("SizeUvarint")).Call(Uint32().Call(Id("sz"))).Op("+").Id("sz"),
					)...,
				)}
			}
			if always {
				tagStmts = append(tagStmts, s...)
			} else {
				tagStmts = append(tagStmts, If(c).Block(s...))
			}
		}
		tagStmts = append(tagStmts, Id(acc).Op("+=").Add(rt("SizeUvarint")).Call(Uint32().Call(Id("numTags"))))
		tagStmts = append(tagStmts, If(Len(cx.r().Dot("UnknownTags")).Op(">").Lit(0)).Block(
			Id(acc).Op("+=").Add(cx.r()).Dot("UnknownTags").Dot("Size").Call()))
		fc := sm.flexibleExpr()
		if fc.GoString() == "true" {
			body = append(body, tagStmts...)
		} else if fc.GoString() != "false" {
			body = append(body, If(fc).Block(tagStmts...))
		}
	}
	return body, nil
}

// fixedWidth is the encoded width of a fixed-size scalar field, else 0.
func (fm *fieldModel) fixedWidth() int {
	if fm.array() {
		return 0
	}
	return fm.kind().FixedSize()
}

func uvarintLen(v uint32) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// valueSize adds the size of one field value to the variable acc.
// With a context, struct values and array elements are inlined.
func valueSize(fm *fieldModel, val *Statement, compact *Statement, tagged bool, acc string, cx *emitCtx) []Code {
	add := func(e Code) Code { return Id(acc).Op("+=").Add(e) }
	t := fm.f.Type
	if t.Array {
		head := add(rt("SizeArrayLen").Call(Len(val), compact))
		if n := t.Kind.FixedSize(); n > 0 {
			return []Code{add(rt("SizeArrayLen").Call(Len(val), compact).Op("+").Len(val).Op("*").Lit(n))}
		}
		var each Code
		switch t.Kind {
		case schema.KindString:
			each = For(List(Id("_"), Id("e")).Op(":=").Range().Add(val)).Block(add(rt("SizeString").Call(Len(Id("e")), compact)))
		case schema.KindBytes, schema.KindRecords:
			each = For(List(Id("_"), Id("e")).Op(":=").Range().Add(val)).Block(add(rt("SizeBytes").Call(Len(Id("e")), compact)))
		default:
			if !tagged && cx.canInline(fm.elem) {
				iv := cx.index()
				child := cx.child(fm.elem, fm.f.Name, iv)
				body, err := sizeBody(fm.elem, child, acc, false)
				if err == nil {
					if !uses(body, child.recv) {
						each = For(Range().Add(val)).Block(body...)
					} else {
						each = For(Id(iv).Op(":=").Range().Add(val)).Block(bindIfUsed(child.recv, Add(val).Index(Id(iv)), body)...)
					}
					break
				}
			}
			cx.call(fm.elem)
			each = For(Id("i").Op(":=").Range().Add(val)).Block(add(Add(val).Index(Id("i")).Dot("size").Call(Id("version"))))
		}
		return []Code{head, each}
	}
	switch t.Kind {
	case schema.KindString:
		if fm.nullable {
			return []Code{add(rt("SizeNullString").Call(val, compact))}
		}
		return []Code{add(rt("SizeString").Call(Len(val), compact))}
	case schema.KindBytes, schema.KindRecords:
		if fm.nullable {
			return []Code{add(rt("SizeNullBytes").Call(val, compact))}
		}
		return []Code{add(rt("SizeBytes").Call(Len(val), compact))}
	case schema.KindStruct:
		if !fm.nullable && !tagged && cx.canInline(fm.elem) {
			child := cx.child(fm.elem, fm.f.Name, "")
			if body, err := sizeBody(fm.elem, child, acc, false); err == nil {
				return []Code{Block(bindIfUsed(child.recv, val, body)...)}
			}
		}
		cx.call(fm.elem)
		if !fm.nullable {
			return []Code{add(Add(val).Dot("size").Call(Id("version")))}
		}
		var out []Code
		if c, always, never := fm.nullableCond(); always {
			out = append(out, add(Lit(1)))
		} else if !never {
			out = append(out, If(c).Block(add(Lit(1))))
		}
		return append(out, If(Add(val).Op("!=").Nil()).Block(add(Add(val).Dot("size").Call(Id("version")))))
	}
	return []Code{add(Lit(t.Kind.FixedSize()))}
}
