package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
)

// emitClone writes Clone, a deep copy through runtime/codec's Clone: one
// line per struct, where a printed copy made Clone and its helpers a sixth
// of the compiled package (docs/benchmarks.md, issue 26).
func (p *printer) emitClone(f *File, s *plan.Struct) {
	name := p.TypeName(s)
	gomodel.DocCommentf(f, "Clone returns a deep copy of m (nil for nil), sharing no memory with it:\n"+
		"strings and byte slices are copied too, so the copy stays valid when the\n"+
		"buffer m was decoded from (DecodeAliased, or a frame a proxy reuses) is\n"+
		"overwritten, and later changes to m do not reach it. Java's duplicate().")
	f.Func().Params(Id("m").Op("*").Id(name)).Id("Clone").Params().Op("*").Id(name).Block(
		List(Id("c"), Id("_")).Op(":=").Add(gomodel.Cd("DeepCopy").Call(Id("m"))).Assert(Op("*").Id(name)),
		Return(Id("c")),
	)
	f.Line()
}
