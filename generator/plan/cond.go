package plan

import "github.com/kafkagen/kafkagen/generator/schema"

// Cond is a condition on the message version, for code that runs at the
// versions Within only. Where Within settles it (Always, Never) printers
// emit no test; otherwise they test the bounds of On that Within does not
// imply (Test).
type Cond struct {
	// On is the range of versions at which the condition holds, inside Within.
	On schema.Versions
	// Within is the range of versions the code holding the condition runs at.
	Within schema.Versions
}

// when is the condition "version is in vs" for code that runs within w.
func when(vs, w schema.Versions) Cond { return Cond{On: vs.Intersect(w), Within: w} }

// at is the condition for code that runs at the versions w only (those of
// Within that are in w).
func (c Cond) at(w schema.Versions) Cond {
	w = w.Intersect(c.Within)
	return Cond{On: c.On.Intersect(w), Within: w}
}

// Always reports whether the condition holds at every version of Within.
func (c Cond) Always() bool { return !c.On.Empty() && c.On.Covers(c.Within) }

// Never reports whether the condition holds at no version of Within.
func (c Cond) Never() bool { return c.On.Empty() }

// Static reports whether Within settles the condition.
func (c Cond) Static() bool { return c.Always() || c.Never() }

// Test is what a run-time test of a condition that is not static checks:
// version == Lo when Eq, otherwise version >= Lo when HasLo and
// version <= Hi when HasHi (both: the two joined by &&).
type Test struct {
	Lo, Hi       int16
	Eq           bool
	HasLo, HasHi bool
}

// Test returns the bounds a run-time test of c checks; c must not be static.
func (c Cond) Test() Test {
	if c.On.Lo == c.On.Hi {
		return Test{Lo: c.On.Lo, Hi: c.On.Hi, Eq: true}
	}
	return Test{Lo: c.On.Lo, Hi: c.On.Hi, HasLo: c.On.Lo > c.Within.Lo, HasHi: c.On.Hi < c.Within.Hi}
}

// String renders the condition for tests and diagnostics: "always",
// "never", or its range ("1-4", "3+").
func (c Cond) String() string {
	switch {
	case c.Always():
		return "always"
	case c.Never():
		return "never"
	}
	return c.On.String()
}
