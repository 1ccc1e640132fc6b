package gomodel

import . "github.com/dave/jennifer/jen"

// RuntimePath is the import path of the runtime package: the types of
// generated fields and the interfaces messages implement, what users of
// generated code call.
const RuntimePath = "github.com/kafkagen/kafkagen/runtime"

// CodecPath is the import path of the codec package: the primitives
// generated methods are made of, which only generated code calls.
const CodecPath = "github.com/kafkagen/kafkagen/runtime/codec"

// Rt names an identifier of package runtime.
func Rt(name string) *Statement { return Qual(RuntimePath, name) }

// Cd names an identifier of package codec.
func Cd(name string) *Statement { return Qual(CodecPath, name) }
