package generator

import (
	"sort"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Code that runs once per message (a message's own fields, structs used
// as single values) calls small functions of the generated package instead
// of the runtime's inlinable ones: a call costs a few nanoseconds, once per
// message, and compiles to a fraction of an inlined copy. Code that runs
// once per array element (scope.hot) inlines as before. A package defines
// only the helpers its code calls (callSet), in kafkagen_registry.go.

// callSet records the helpers a package's code calls.
type callSet map[string]bool

// helper is a package-level function wrapping one runtime function.
type helper struct {
	params, results []Code
	body            Code
}

// primitiveKinds names the runtime functions of each fixed-width kind.
var primitiveKinds = map[schema.Kind]string{
	schema.KindBool: "Bool", schema.KindInt8: "Int8", schema.KindInt16: "Int16",
	schema.KindUint16: "Uint16", schema.KindInt32: "Int32", schema.KindUint32: "Uint32",
	schema.KindInt64: "Int64", schema.KindFloat64: "Float64", schema.KindUUID: "UUID",
}

// growKinds names the grow helpers of arrays of each kind but structs.
var growKinds = map[schema.Kind]string{
	schema.KindBool: "Bools", schema.KindInt8: "Int8s", schema.KindInt16: "Int16s",
	schema.KindUint16: "Uint16s", schema.KindInt32: "Int32s", schema.KindUint32: "Uint32s",
	schema.KindInt64: "Int64s", schema.KindFloat64: "Float64s", schema.KindUUID: "UUIDs",
	schema.KindString: "Strings", schema.KindBytes: "Bytes", schema.KindRecords: "Bytes",
}

// helpers defines every helper a package may need, by name.
func helpers() map[string]helper {
	h := map[string]helper{
		"readTags": {
			params:  []Code{Id("d").Op("*").Add(rt("Decoder")), Id("off").Int(), Id("tags").Op("*").Add(rt("Tags"))},
			results: []Code{Int()},
			body:    Return(Id("d").Dot("Tags").Call(Id("off"), Id("tags"))),
		},
		"appendString": {
			params:  []Code{Id("b").Index().Byte(), Id("s").String(), Id("l").Add(rt("Lengths"))},
			results: []Code{Index().Byte()},
			body:    Return(rt("AppendString").Call(Id("b"), Id("s"), Id("l"))),
		},
		"appendUvarint": {
			params:  []Code{Id("b").Index().Byte(), Id("v").Uint32()},
			results: []Code{Index().Byte()},
			body:    Return(rt("AppendUvarint").Call(Id("b"), Id("v"))),
		},
		"extend": {
			params:  []Code{Id("b").Index().Byte(), Id("n").Int()},
			results: []Code{Index().Byte(), Index().Byte()},
			body:    Return(rt("Extend").Call(Id("b"), Id("n"))),
		},
		"appendArrayLen": {
			params:  []Code{Id("b").Index().Byte(), Id("n").Int(), Id("l").Add(rt("Lengths"))},
			results: []Code{Index().Byte()},
			body:    Return(rt("AppendArrayLen").Call(Id("b"), Id("n"), Id("l"))),
		},
	}
	for k, name := range growKinds {
		t := Index().Add(elemType(k, ""))
		h["grow"+name] = helper{
			params:  []Code{Id("s").Add(t), Id("n").Int()},
			results: []Code{t.Clone()},
			body:    Return(rt("Grow").Call(Id("s"), Id("n"))),
		}
	}
	for k, name := range primitiveKinds {
		h["read"+name] = helper{
			params:  []Code{Id("d").Op("*").Add(rt("Decoder")), Id("off").Int(), Id("field").String()},
			results: []Code{elemType(k, ""), Int()},
			body:    Return(Id("d").Dot(name).Call(Id("off"), Id("field"))),
		}
		h["append"+name] = helper{
			params:  []Code{Id("b").Index().Byte(), Id("v").Add(elemType(k, ""))},
			results: []Code{Index().Byte()},
			body:    Return(rt("Append"+name).Call(Id("b"), Id("v"))),
		}
	}
	return h
}

// read is the call of the Decoder method that reads a single value: the
// method itself where the code is hot, else the package's read<Method>
// helper, which it records as used.
func (sc scope) read(method string, args ...Code) *Statement {
	if sc.hot || sc.calls == nil {
		return Id("d").Dot(method).Call(args...)
	}
	name := "read" + method
	sc.calls[name] = true
	return Id(name).Call(append([]Code{Id("d")}, args...)...)
}

// write is the call of the runtime Append function fn that writes a single
// value: fn itself where the code is hot, else the package's helper of the
// same name unexported (appendString), which it records as used.
func (sc scope) write(fn string, args ...Code) *Statement {
	return sc.call(fn, "a"+fn[1:], args...)
}

// call is the call of the runtime function fn where the code is hot, else
// of the package's helper name, which it records as used.
func (sc scope) call(fn, name string, args ...Code) *Statement {
	if sc.hot || sc.calls == nil {
		return rt(fn).Call(args...)
	}
	sc.calls[name] = true
	return Id(name).Call(args...)
}

// emitHelpers writes the helpers the package's code calls, sorted by name.
func emitHelpers(f *File, used callSet) {
	if len(used) == 0 {
		return
	}
	all := helpers()
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)
	f.Line()
	docComment(f, "The functions below wrap runtime functions for code that runs once per\n"+
		"message: a call there compiles to a fraction of an inlined copy.")
	for _, n := range names {
		h := all[n]
		f.Line()
		f.Comment("//go:noinline")
		f.Func().Id(n).Params(h.params...).Params(h.results...).Block(h.body)
	}
}
