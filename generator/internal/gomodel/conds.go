package gomodel

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// Version conditions as Go tests of the generated methods' version
// parameter, for every printer.

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
