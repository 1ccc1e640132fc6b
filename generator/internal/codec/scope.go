package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
)

// printer prints the code of one spec: it walks the spec's plan and takes
// Go names from the package's Go model.
type printer struct {
	*gomodel.Message
	// fastDecode: the decode code of array elements takes the inlined fast
	// paths (scope.hot); see FastPaths. Encode and size code always does.
	fastDecode bool
	// tables: the spec's structs encode and decode through tables
	// (tables.go); only size is printed.
	tables bool
}

// scope is where a struct's code is printed: the body of its own method
// (receiver m), or the body of its parent's loop over an array of it
// (receiver e, element index i), for a struct the plan inlines.
type scope struct {
	*printer
	// uses records what the method's body refers to, for the structs
	// inlined into it too; recvUsed whether this scope's receiver is read.
	uses     *uses
	recvUsed *bool
	recv     string
	index    string      // the loop index the body may use for arrays of its own
	array    *plan.Field // the array field being looped over, inlined scope only
	// hot: the code runs once per element of an array, where it takes the
	// inlined fast paths (short array counts, record batches, the runtime's
	// inlinable functions); code that runs once per message calls instead,
	// which compiles smaller (calls.go).
	hot bool
	// fast: array elements printed in this scope are hot.
	fast bool
}

// uses records the variables a method's printed body refers to, which the
// method then declares before it: a scope records each use as it prints
// it, so that the declarations follow the code instead of predicates
// that would have to be kept in step with the printers.
type uses struct {
	lengths   bool // the message's lengths where the plan does not settle them
	runBuffer bool // p, the window of a run of fixed-width fields being written
	err       bool // err, assigned by a call that can fail
	count     bool // n, an array count read
	marker    bool // present, a nullable struct's marker read
}

// methodScope is the scope of s's own size and appendTo methods.
func (p *printer) methodScope(s *plan.Struct) scope {
	return scope{printer: p, uses: &uses{}, recvUsed: new(bool), recv: "m", index: "i", hot: s.Repeated, fast: true}
}

// decodeScope is the scope of s's own decode method.
func (p *printer) decodeScope(s *plan.Struct) scope {
	return scope{printer: p, uses: &uses{}, recvUsed: new(bool), recv: "m", index: "i", hot: s.Repeated && p.fastDecode, fast: p.fastDecode}
}

// inlined is the scope of the elements of the array field f.
func (sc scope) inlined(f *plan.Field) scope {
	return scope{printer: sc.printer, uses: sc.uses, recvUsed: new(bool), recv: "e", index: "j", array: f, hot: sc.fast, fast: sc.fast}
}

// r is the receiver holding the struct being printed.
func (sc scope) r() *Statement {
	*sc.recvUsed = true
	return Id(sc.recv)
}

// assignErr is "b, err =", the left side of a call that can fail.
func (sc scope) assignErr() *Statement {
	sc.uses.err = true
	return List(Id("b"), Err()).Op("=")
}

// val is the field f of the receiver.
func (sc scope) val(f *plan.Field) *Statement { return sc.r().Dot(sc.FieldName(f)) }
