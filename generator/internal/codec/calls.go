package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// Code that runs once per message (a message's own fields, structs used
// as single values) calls the out-of-line functions of package codec
// (...NoInline) instead of the inlinable ones: a call costs a few
// nanoseconds, once per message, and compiles to a fraction of an inlined
// copy. Code that runs once per array element (scope.hot) inlines.

// primitiveKinds names the codec functions of each fixed-width kind.
var primitiveKinds = map[schema.Kind]string{
	schema.KindBool: "Bool", schema.KindInt8: "Int8", schema.KindInt16: "Int16",
	schema.KindUint16: "Uint16", schema.KindInt32: "Int32", schema.KindUint32: "Uint32",
	schema.KindInt64: "Int64", schema.KindFloat64: "Float64", schema.KindUUID: "UUID",
}

// growKinds names the out-of-line Grow of arrays of each kind but structs.
var growKinds = map[schema.Kind]string{
	schema.KindBool: "Bools", schema.KindInt8: "Int8s", schema.KindInt16: "Int16s",
	schema.KindUint16: "Uint16s", schema.KindInt32: "Int32s", schema.KindUint32: "Uint32s",
	schema.KindInt64: "Int64s", schema.KindFloat64: "Float64s", schema.KindUUID: "UUIDs",
	schema.KindString: "Strings", schema.KindBytes: "Bytes", schema.KindRecords: "Bytes",
}

// read is the call of the Decoder method that reads a single value: the
// method itself where the code is hot, else codec's Read<method>NoInline.
func (sc scope) read(method string, args ...Code) *Statement {
	if sc.hot {
		return Id("d").Dot(method).Call(args...)
	}
	return gomodel.Cd("Read" + method + "NoInline").Call(append([]Code{Id("d")}, args...)...)
}

// write is the call of codec's function fn that writes a single value:
// fn itself where the code is hot, else fn's out-of-line wrapper.
func (sc scope) write(fn string, args ...Code) *Statement {
	return sc.call(gomodel.Cd(fn), fn+"NoInline", args...)
}

// call is the call of hot where the code is hot, else of codec's function
// cold.
func (sc scope) call(hot *Statement, cold string, args ...Code) *Statement {
	if sc.hot {
		return hot.Call(args...)
	}
	return gomodel.Cd(cold).Call(args...)
}
