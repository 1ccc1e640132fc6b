// Package codec is kafkagen's binary codec printer: for each struct of a
// spec's plan, its Go type, constructor, Reset and isDefault (types.go),
// Clone (clone.go), the message methods (top.go), Size, AppendTo and
// Decode (size.go, encode*.go, decode*.go, printed in a scope that records
// what the body uses: scope.go) or, for the APIs off the data path, tables
// the runtime interprets (tables.go, fastpaths.go), and the entity and
// endpoint visitors (visit*.go); for the package, the registry
// (registry.go) and the api keys (apikeys.go).
// It fills files the generator's entry starts, from plans already pruned.
package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
)

// PrintSpec prints into f the code of one spec: that of every struct of
// its plan. printed: print its encode and decode methods even where the
// spec could have tables (tables.go).
func PrintSpec(f *File, msg *gomodel.Message, printed bool) {
	p := &printer{Message: msg, fastDecode: FastPaths(msg.Plan.Spec), tables: !printed && tableDriven(msg.Plan)}
	for _, s := range msg.Plan.Structs {
		p.emitStruct(f, s)
	}
}

// PrintRegistry prints into f the package-level code: the registry, the
// helpers the messages' methods share and the proof that every message
// can be visited.
func PrintRegistry(f *File, n *gomodel.Names) {
	emitRegistry(f, n)
	emitMessageHelpers(f)
	emitVisitorAssertion(f, n)
}

// emitStruct writes a struct's type, constructor, Reset and isDefault, the
// message's methods, the size, appendTo and decode methods of a struct
// the plan gives methods of its own (the others are inlined into their
// parents' methods) or, for a spec with tables, the struct's table, its
// size method and, for the message, appendTo and decode calling the
// runtime's interpreters (tables.go), and the entity and endpoint visitors
// (visit.go).
func (p *printer) emitStruct(f *File, s *plan.Struct) {
	p.emitType(f, s)
	p.emitNew(f, s)
	if s.Top {
		p.emitTopMethods(f, s)
	}
	p.emitReset(f, s)
	p.emitClone(f, s)
	if p.tables {
		p.emitTable(f, s)
	}
	if s.Methods {
		p.emitSize(f.Group, s)
		switch {
		case !p.tables:
			p.emitAppend(f.Group, s)
			p.emitDecode(f.Group, s)
		case s.Top:
			p.emitTableMethods(f.Group, s)
		}
	}
	p.emitVisitors(f, s)
}
