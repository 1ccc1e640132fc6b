package generator

import (
	"fmt"
	"regexp"

	. "github.com/dave/jennifer/jen"
)

// emitCtx says where a struct's code is emitted: as the body of its own
// method (receiver m), or inlined into an enclosing struct's method for an
// array element or a struct value, so that encoding and decoding a message
// makes no call per nested struct, the way hand-written code would.
type emitCtx struct {
	recv  string          // the variable holding the struct's pointer
	depth int             // 0 in a method body
	stack []*structModel  // structs being inlined, outermost first
	wrap  func(Code) Code // prefixes an encode error with the enclosing path
	// unwind records the enclosing path in the Reader before returning
	// from a failed decode, innermost first.
	unwind []Code
	// flexDeclared: the flexible variable is already in scope (it has the
	// same value at every depth: flexibility is per message).
	flexDeclared bool
	// calls collects the structs whose own methods this code calls (those
	// not inlined), so that only needed methods are emitted.
	calls map[*structModel]bool
}

// call records that the code calls elem's size, appendTo or decode method.
func (c *emitCtx) call(elem *structModel) {
	if c != nil && c.calls != nil {
		c.calls[elem] = true
	}
}

// declareFlexible declares the flexible variable for sm's code unless it is
// settled at generation time or already in scope.
func (c *emitCtx) declareFlexible(sm *structModel) []Code {
	decl := sm.flexibleDecl()
	if len(decl) == 0 || c.flexDeclared {
		return nil
	}
	c.flexDeclared = true
	return decl
}

// maxInlineDepth bounds how deep nested structs are inlined; deeper ones
// call their own methods.
const maxInlineDepth = 6

func methodCtx(sm *structModel, calls map[*structModel]bool) *emitCtx {
	return &emitCtx{recv: "m", stack: []*structModel{sm}, wrap: func(e Code) Code { return e }, calls: calls}
}

func (c *emitCtx) r() *Statement { return Id(c.recv) }

// canInline reports whether elem's code may be inlined here.
func (c *emitCtx) canInline(elem *structModel) bool {
	if c == nil || c.depth >= maxInlineDepth {
		return false
	}
	for _, s := range c.stack {
		if s == elem {
			return false
		}
	}
	return true
}

// child is the context of elem inlined for field, at element index (an
// array element) or as a struct value (index "").
func (c *emitCtx) child(elem *structModel, field, index string) *emitCtx {
	d := c.depth + 1
	stack := append(append([]*structModel(nil), c.stack...), elem)
	path := func(e Code) Code { return rt("Within").Call(e, Lit(field)) }
	unwind := Id("r").Dot("Within").Call(Lit(field))
	if index != "" {
		path = func(e Code) Code { return rt("WithinElem").Call(e, Lit(field), Id(index)) }
		unwind = Id("r").Dot("WithinElem").Call(Lit(field), Id(index))
	}
	return &emitCtx{
		recv:         fmt.Sprintf("e%d", d),
		depth:        d,
		stack:        stack,
		wrap:         func(e Code) Code { return c.wrap(path(e)) },
		unwind:       append([]Code{unwind}, c.unwind...),
		flexDeclared: c.flexDeclared,
		calls:        c.calls,
	}
}

// index is the loop variable for array elements inlined at the next depth.
func (c *emitCtx) index() string { return fmt.Sprintf("i%d", c.depth+1) }

// fail returns from a failed decode, recording the enclosing path.
func (c *emitCtx) fail(stmts ...Code) []Code {
	out := append(append([]Code(nil), stmts...), c.unwind...)
	return append(out, Return())
}

// encodeErr returns err, wrapped with the enclosing path, from appendTo.
func (c *emitCtx) encodeErr(err Code) Code { return Return(Id("b"), c.wrap(err)) }

// bindIfUsed declares the child's receiver (recv := &val) in front of body
// when body refers to it.
func bindIfUsed(recv string, val Code, body []Code) []Code {
	if !uses(body, recv) {
		return body
	}
	return append([]Code{Id(recv).Op(":=").Op("&").Add(val)}, body...)
}

// uses reports whether the rendered code mentions the identifier name.
func uses(code []Code, name string) bool {
	text := fmt.Sprintf("%#v", Block(code...))
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(text)
}
