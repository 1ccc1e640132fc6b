// Package jsoncodec is kafkagen's JSON printer (kafkagen -json): per spec,
// a file of its own (fetch_request_json.go) with the message in the form of
// Kafka's generated JsonConverter classes, so that packages generated
// without -json carry none of it. It walks the plan the codec is printed
// from, with the same Go names, so that JSON accepts exactly the versions
// the binary codec does (which pruning may narrow), and calls the generated
// types' Reset and isDefault methods.
package jsoncodec

import (
	"fmt"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
)

// jsonMethods are the methods -json adds to a top-level message; a spec
// field with one of these Go names would clash with them.
var jsonMethods = []string{"AppendJSON", "DecodeJSON", "MarshalJSON", "UnmarshalJSON"}

// FileName is the file of a spec's JSON code, beside its main file.
func FileName(goFile string) string { return strings.TrimSuffix(goFile, ".go") + "_json.go" }

// PrintFile prints into file the JSON methods of p's spec: those of every
// struct the codec has code for.
func PrintFile(file *File, p *gomodel.Message) error {
	spec := p.Plan.Spec
	for _, f := range spec.Root.Fields {
		for _, m := range jsonMethods {
			if p.Names.FieldName(f) == m {
				return fmt.Errorf("field %s has the Go name %s, which -json uses for a method", f.Name, m)
			}
		}
	}
	emitTop(file, p)
	for _, s := range p.Plan.Structs {
		keys := map[string]string{}
		for _, f := range s.Schema.Fields {
			if prev, ok := keys[f.JSONKey()]; ok {
				return fmt.Errorf("%s: fields %s and %s have the same JSON key %q", s.Schema.Name, prev, f.Name, f.JSONKey())
			}
			keys[f.JSONKey()] = f.Name
		}
		if s.Within.Empty() {
			continue // no field reaches it at the versions generated
		}
		w := &jsonStruct{Message: p, s: s}
		w.emitAppend(file)
		w.emitDecode(file)
	}
	return nil
}

// emitTop writes the exported JSON methods of the message.
func emitTop(f *File, p *gomodel.Message) {
	spec := p.Plan.Spec
	name := p.TypeName(p.Plan.Top)
	minV, maxV := int(p.Plan.Versions.Lo), int(p.Plan.Versions.Hi)
	recv := func() *Statement { return Params(Id("m").Op("*").Id(name)) }
	unsupported := func(op string, ret ...Code) *Statement {
		return If(gomodel.Unsupported(p.Plan.Versions)).Block(
			Return(append(ret, gomodel.Cd("UnsupportedVersion").Call(Lit(op), Lit(spec.Name), Id("version"), Lit(minV), Lit(maxV)))...),
		)
	}
	gomodel.DocComment(f, "AppendJSON appends m as Kafka's generated JsonConverter writes it at\n"+
		"version: keys as in the spec, fields present at version only, tagged\n"+
		"fields only when they differ from their default. Bytes and records are\n"+
		"base64 (records by size with opts.RecordsSize) and unknown tagged fields\n"+
		"are kept under \"_unknownTaggedFields\" (left out with opts.OmitUnknownTags).\n"+
		"On error dst is returned unchanged.")
	f.Func().Add(recv()).Id("AppendJSON").Params(Id("dst").Index().Byte(), Id("version").Int16(), Id("opts").Add(gomodel.Rt("JSONOptions"))).Params(Index().Byte(), Error()).Block(
		unsupported("marshal JSON", Id("dst")),
		List(Id("b"), Err()).Op(":=").Id("m").Dot("appendJSON").Call(Id("dst"), Id("version"), Op("&").Id("opts")),
		If(Err().Op("!=").Nil()).Block(Return(Id("dst"), gomodel.Cd("FinishJSON").Call(Err(), Lit(spec.Name), Id("version")))),
		Return(Id("b"), Nil()),
	)
	f.Line()
	gomodel.DocComment(f, "DecodeJSON resets m and reads it from JSON written at version, as\n"+
		"AppendJSON writes it (records by size excepted). Every key must be a field\n"+
		"present at version, every field present and not tagged at version must\n"+
		"be there, and errors name the field path and the byte offset.")
	f.Func().Add(recv()).Id("DecodeJSON").Params(Id("data").Index().Byte(), Id("version").Int16()).Error().Block(
		unsupported("unmarshal JSON"),
		Comment("Start from a zero message: nothing may keep pointing into a buffer"),
		Comment("that an earlier DecodeAliased read."),
		Op("*").Id("m").Op("=").Id(name).Values(),
		Id("m").Dot("Reset").Call(),
		Var().Id("r").Add(gomodel.Cd("JSONReader")),
		Id("r").Dot("Init").Call(Id("data"), Id("version")),
		Id("m").Dot("decodeJSON").Call(Op("&").Id("r"), Id("version")),
		Return(Id("r").Dot("Finish").Call(Lit(spec.Name), Id("version"))),
	)
	f.Line()
	gomodel.DocCommentf(f, "MarshalJSON implements json.Marshaler: AppendJSON at the latest version\n(%d) with the default options. runtime.VersionedJSON marshals at another.", maxV)
	f.Func().Add(recv()).Id("MarshalJSON").Params().Params(Index().Byte(), Error()).Block(
		Return(Id("m").Dot("AppendJSON").Call(Nil(), Lit(maxV), gomodel.Rt("JSONOptions").Values())),
	)
	f.Line()
	gomodel.DocCommentf(f, "UnmarshalJSON implements json.Unmarshaler: DecodeJSON at the latest\nversion (%d). runtime.VersionedJSON unmarshals at another.", maxV)
	f.Func().Add(recv()).Id("UnmarshalJSON").Params(Id("data").Index().Byte()).Error().Block(
		Return(Id("m").Dot("DecodeJSON").Call(Id("data"), Lit(maxV))),
	)
	f.Line()
}

// jsonStruct prints the unexported JSON methods of one struct.
type jsonStruct struct {
	*gomodel.Message
	s *plan.Struct
	// usesErr records that appendJSON's body assigns err (a struct value's
	// appendJSON call), which it then declares.
	usesErr bool
}

// at is the condition "version is in vs" for the struct's methods.
func (w *jsonStruct) at(c plan.Cond) plan.Cond { return gomodel.Rebase(c, w.s.Within) }

// jsonUnknownTagsKey is runtime.UnknownTagsKey, the JSON key of unknown
// tagged fields.
const jsonUnknownTagsKey = "_unknownTaggedFields"
