package generator

import (
	. "github.com/dave/jennifer/jen"
)

// scope is where a struct's code is printed: the body of its own method
// (receiver m), or the body of its parent's loop over an array of it
// (receiver e, element index i), for a struct the plan inlines.
type scope struct {
	recv  string
	index string      // the loop index the body may use for arrays of its own
	array *fieldModel // the array field being looped over, inlined scope only
	// hot: the code runs once per element of an array, where it takes the
	// inlined fast paths (short array counts, record batches, the runtime's
	// inlinable functions); code that runs once per message calls instead,
	// which compiles smaller (calls.go).
	hot bool
	// calls records the package helpers the code calls.
	calls callSet
}

// methodScope is the scope of sm's own methods.
func methodScope(sm *structModel) scope {
	return scope{recv: "m", index: "i", hot: sm.p.Repeated, calls: sm.calls}
}

// inlined is the scope of the elements of the array field fm.
func inlined(fm *fieldModel) scope {
	return scope{recv: "e", index: "j", array: fm, hot: true, calls: fm.owner.calls}
}

// r is the receiver holding the struct being printed.
func (s scope) r() *Statement { return Id(s.recv) }
