package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// lengthsFor is the runtime.Lengths of the value of a field written with a
// length or count (hasLength): Compact in a tag section (tagged), else the
// field's in place, where the message's flexible versions that the plan
// does not settle are the method's variable lengths (lengthsDecl); classic
// reports whether they are settled Classic, where no compact fast path
// applies.
func (sc scope) lengthsFor(f *plan.Field, tagged bool) (lengths *Statement, classic bool) {
	c := f.Compact
	switch {
	case tagged:
		return gomodel.Cd("Compact"), false
	case c.Always():
		return gomodel.Cd("Compact"), false
	case c.Never():
		return gomodel.Cd("Classic"), true
	case c == f.Owner.Flexible:
		sc.uses.lengths = true
		return Id("lengths"), false
	}
	return gomodel.Cd("Lengths").Call(gomodel.CondExpr(c)), false // the field's own flexibleVersions
}

// lengthsDecl declares the variable lengths for a method of s whose body
// used it.
func lengthsDecl(s *plan.Struct, u *uses) []Code {
	if !u.lengths {
		return nil
	}
	return []Code{Id("lengths").Op(":=").Add(gomodel.Cd("Lengths")).Call(gomodel.CondExpr(s.Flexible))}
}

// hasLength reports whether the field is written with a length or count.
func hasLength(f *schema.Field) bool {
	t := f.Type
	return t.Array || t.Kind == schema.KindString || t.Kind == schema.KindBytes || t.Kind == schema.KindRecords
}
