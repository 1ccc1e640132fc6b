package gomodel

import (
	"math"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// Version conditions as Go tests of the generated methods' version
// parameter, for every printer: the only place that prints one.

// anyVersion is every version an int16 holds: the range of code that may
// run at any version (IsFlexible, HeaderVersion, the visitors' guard).
var anyVersion = schema.Versions{Lo: math.MinInt16, Hi: math.MaxInt16}

// InVersions is the Go test "version is in vs" for code that may run at
// any version; vs must be neither empty nor every version.
func InVersions(vs schema.Versions) *Statement {
	return CondExpr(plan.Cond{On: vs, Within: anyVersion})
}

// NotInVersions is the Go test "version is not in vs" for code that may
// run at any version; vs must be neither empty nor every version.
func NotInVersions(vs schema.Versions) *Statement {
	return NotCondExpr(plan.Cond{On: vs, Within: anyVersion})
}

// Unsupported is the Go test of a top-level message's methods for a
// version outside vs, the versions generated, which they refuse: both
// bounds are tested, even for a single version.
func Unsupported(vs schema.Versions) *Statement {
	return Id("version").Op("<").Lit(int(vs.Lo)).Op("||").Id("version").Op(">").Lit(int(vs.Hi))
}

// CondExpr is the Go test of a condition that is not static.
func CondExpr(c plan.Cond) *Statement {
	t := c.Test()
	if t.Eq {
		return Id("version").Op("==").Lit(int(t.Lo))
	}
	var e *Statement
	if t.HasLo {
		e = Id("version").Op(">=").Lit(int(t.Lo))
	}
	if t.HasHi {
		hi := Id("version").Op("<=").Lit(int(t.Hi))
		if e == nil {
			return hi
		}
		return e.Op("&&").Add(hi)
	}
	return e
}

// NotCondExpr is the Go test of a condition that is not static failing,
// written without a negation (version < 4 rather than !(version >= 4)).
func NotCondExpr(c plan.Cond) *Statement {
	t := c.Test()
	if t.Eq {
		return Id("version").Op("!=").Lit(int(t.Lo))
	}
	var e *Statement
	if t.HasLo {
		e = Id("version").Op("<").Lit(int(t.Lo))
	}
	if t.HasHi {
		hi := Id("version").Op(">").Lit(int(t.Hi))
		if e == nil {
			return hi
		}
		return e.Op("||").Add(hi)
	}
	return e
}

// Guarded is the statements body prints, under c: as they are where c
// always holds, nothing where it never does (body is then not printed, so
// that the scope records no use of its code), and in an if statement
// otherwise.
func Guarded(c plan.Cond, body func() []Code) []Code {
	if c.Never() {
		return nil
	}
	stmts := body()
	switch {
	case len(stmts) == 0:
		return nil
	case c.Always():
		return stmts
	}
	return []Code{If(CondExpr(c)).Block(stmts...)}
}

// Rebase is c for code that runs at the versions w only.
func Rebase(c plan.Cond, w schema.Versions) plan.Cond {
	return plan.Cond{On: c.On.Intersect(w), Within: w}
}

// Outside is the range of versions of c.Within where c does not hold, when
// that is one range (c's range touches an end of Within); otherwise
// c.Within itself.
func Outside(c plan.Cond) schema.Versions {
	w := c.Within
	switch {
	case c.Never():
		return w
	case c.On.Lo <= w.Lo && c.On.Hi < w.Hi:
		return schema.Versions{Lo: c.On.Hi + 1, Hi: w.Hi}
	case c.On.Hi >= w.Hi && c.On.Lo > w.Lo:
		return schema.Versions{Lo: w.Lo, Hi: c.On.Lo - 1}
	}
	return w
}
