package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// The APIs off the data path (FastPaths) encode and decode through tables:
// each struct of theirs is a codec.Struct value, static data, which the
// runtime's two interpreters (codec.AppendStruct, codec.DecodeStruct) walk
// with the printed methods' reads, writes and errors. Printed per struct,
// their appendTo and decode methods were a third of a client package's
// compile time (docs/benchmarks.md, "Tables for the APIs off the data
// path"). Size stays printed: it costs the compiler little, and sizes
// AppendTo's buffer at a printed method's speed.

// tableDriven reports whether the message m encodes and decodes through
// tables: it is off the data path, and its structs use only what the
// interpreters know (no known tagged field, no nullable struct, no
// records, no uuid default other than zero).
func tableDriven(m *plan.Message) bool {
	if FastPaths(m.Spec) {
		return false
	}
	for _, s := range m.Structs {
		if len(s.Tagged) > 0 {
			return false
		}
		for _, f := range s.Fields {
			t, sf := f.Schema.Type, f.Schema
			switch {
			case t.Kind == schema.KindRecords,
				t.Kind == schema.KindStruct && !t.Array && sf.Nullable(),
				t.Kind == schema.KindUUID && sf.DefaultValue.UUID != [16]byte{}:
				return false
			}
		}
	}
	return true
}

// tableName is the name of the table of s.
func (p *printer) tableName(s *plan.Struct) string { return "table" + p.TypeName(s) }

// emitTable writes the table of s.
func (p *printer) emitTable(f *File, s *plan.Struct) {
	name := p.TypeName(s)
	var fields []Code
	for _, st := range s.Steps {
		for _, fld := range st.Fields {
			fields = append(fields, p.tableField(s, fld))
		}
	}
	table := []Code{key("Fields", Index().Add(gomodel.Cd("Field")).Custom(multiLine, fields...))}
	if s.HasTags {
		table = append(table,
			key("HasTags", True()),
			key("Tags", offsetOf(name, "UnknownTags")),
			key("Flexible", versionsLit(s.Flexible.On)),
			key("MaxTag", Lit(s.MaxTag)),
		)
	}
	gomodel.DocCommentf(f, "%s is the codec table of %s.", p.tableName(s), name)
	f.Var().Id(p.tableName(s)).Op("=").Add(gomodel.Cd("Struct")).Custom(multiLine, table...)
	f.Line()
}

// multiLine prints a composite literal's elements one per line.
var multiLine = Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// key is the keyed element name: value.
func key(name string, value Code) Code { return Id(name).Op(":").Add(value) }

// tableField is the codec.Field of fld, a field of s, with the keys that
// are not zero.
func (p *printer) tableField(s *plan.Struct, fld *plan.Field) Code {
	sf := fld.Schema
	t := sf.Type
	kv := []Code{
		key("Name", Lit(sf.Name)),
		key("Offset", offsetOf(p.TypeName(s), p.FieldName(fld))),
		key("Kind", gomodel.Cd(tableKinds[t.Kind])),
	}
	if t.Array {
		kv = append(kv, key("Array", True()), key("MinElemSize", Lit(fld.MinElemSize)))
	}
	kv = append(kv, key("InPlace", versionsLit(fld.InPlace.On)))
	if sf.Ignorable {
		kv = append(kv, key("Ignorable", True()))
	} else if !fld.Present.Always() {
		kv = append(kv, key("Fix", Lit(p.AbsentFix(fld))))
	}
	if sf.Nullable() {
		kv = append(kv, key("Nullable", True()), key("NullAt", versionsLit(fld.Nullable.On)))
	}
	if hasLength(sf) {
		kv = append(kv, key("Compact", versionsLit(fld.Compact.On)))
	}
	if t.Kind == schema.KindStruct {
		kv = append(kv, key("Elem", Op("&").Id(p.tableName(fld.Elem))))
		if t.Array {
			elem := Id(p.TypeName(fld.Elem))
			kv = append(kv,
				key("ElemSize", Qual("unsafe", "Sizeof").Call(elem.Clone().Values())),
				key("Slice", Parens(Op("*").Index().Add(elem)).Call(Nil())),
			)
		}
	}
	if def := tableDefault(sf); len(def) > 0 {
		kv = append(kv, key("Default", gomodel.Cd("Default").Values(def...)))
	}
	return Custom(multiLine, kv...)
}

// tableDefault is the codec.Default of f, its zero keys left out.
func tableDefault(f *schema.Field) []Code {
	v, t := f.DefaultValue, f.Type
	var d []Code
	if v.Null {
		d = append(d, key("Null", True()))
	}
	if t.Array {
		return d
	}
	switch t.Kind {
	case schema.KindBool:
		if v.Bool {
			d = append(d, key("Int", Lit(1)))
		}
	case schema.KindInt8, schema.KindInt16, schema.KindInt32, schema.KindInt64:
		if v.Int != 0 {
			d = append(d, key("Int", Lit(int(v.Int))))
		}
	case schema.KindUint16, schema.KindUint32:
		if v.Uint != 0 {
			d = append(d, key("Int", Lit(int(v.Uint))))
		}
	case schema.KindFloat64:
		if v.Float != 0 {
			d = append(d, key("Float", gomodel.DefaultLit(f)))
		}
	case schema.KindString:
		if v.String != "" {
			d = append(d, key("String", Lit(v.String)))
		}
	}
	return d
}

// tableKinds names the codec.Kind of each field kind the tables know.
var tableKinds = map[schema.Kind]string{
	schema.KindBool: "KindBool", schema.KindInt8: "KindInt8", schema.KindInt16: "KindInt16",
	schema.KindUint16: "KindUint16", schema.KindInt32: "KindInt32", schema.KindUint32: "KindUint32",
	schema.KindInt64: "KindInt64", schema.KindFloat64: "KindFloat64", schema.KindUUID: "KindUUID",
	schema.KindString: "KindString", schema.KindBytes: "KindBytes", schema.KindStruct: "KindStruct",
}

// offsetOf is unsafe.Offsetof(T{}.F).
func offsetOf(typeName, field string) Code {
	return Qual("unsafe", "Offsetof").Call(Id(typeName).Values().Dot(field))
}

// versionsLit is the codec.Versions of vs.
func versionsLit(vs schema.Versions) Code {
	return gomodel.Cd("Versions").Values(key("Lo", Lit(int(vs.Lo))), key("Hi", Lit(int(vs.Hi))))
}

// emitTableMethods writes the appendTo and decode methods of the message s,
// which hand it to the interpreters with its table.
func (p *printer) emitTableMethods(g *Group, s *plan.Struct) {
	recv := Params(Id("m").Op("*").Id(p.TypeName(s)))
	table := Op("&").Id(p.tableName(s))
	ptr := Qual("unsafe", "Pointer").Call(Id("m"))
	g.Func().Add(recv).Id("appendTo").Params(Id("b").Index().Byte(), Id("version").Int16()).Params(Index().Byte(), Error()).Block(
		Return(gomodel.Cd("AppendStruct").Call(Id("b"), table, ptr, Id("version"))),
	)
	g.Line()
	g.Func().Add(recv.Clone()).Id("decode").Params(
		Id("d").Op("*").Add(gomodel.Cd("Decoder")), Id("off").Int(), Id("version").Int16(),
	).Int().Block(
		Return(gomodel.Cd("DecodeStruct").Call(Id("d"), table.Clone(), ptr.Clone(), Id("off"), Id("version"))),
	)
	g.Line()
}
