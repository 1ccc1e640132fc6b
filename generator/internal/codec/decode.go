package codec

import (
	"fmt"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// emitDecode writes decode(d, off, version), which reads the struct at off
// and returns the offset after it. Every field is either read or set to its
// default, so decoding into a used struct equals decoding into a new one,
// while slices, strings and nested structs are reused.
//
// Reads are not checked one by one: a failed read records what failed and
// where, and every later read fails at once (runtime.Decoder). The code
// checks for a failure only after each array element, to name it, and
// stops there; the failure's offset and path reach Decode's caller.
func (p *printer) emitDecode(g *Group, s *plan.Struct) {
	sc := p.decodeScope(s)
	code := decodeBody(s, sc)
	body := lengthsDecl(s, sc.uses)
	if sc.uses.count {
		body = append(body, Var().Id("n").Int())
	}
	if sc.uses.marker {
		body = append(body, Var().Id("present").Bool())
	}
	body = append(body, code...)
	body = append(body, Return(Id("off")))
	g.Func().Params(Id("m").Op("*").Id(p.TypeName(s))).Id("decode").Params(
		Id("d").Op("*").Add(gomodel.Cd("Decoder")), Id("off").Int(), Id("version").Int16(),
	).Int().Block(body...)
	g.Line()
}

// decodeBody decodes into the struct held by sc.recv. The defaults of the
// fields that are never in place come first, one block per condition.
func decodeBody(s *plan.Struct, sc scope) []Code {
	var defaults defaultBlocks
	var body []Code
	for _, st := range s.Steps {
		if st.When.Never() {
			for _, f := range st.Fields {
				defaults.add(f, st.When.Within, sc)
			}
			continue
		}
		var read []Code
		if st.Run {
			read = readRun(st, sc)
		} else {
			f := st.Fields[0]
			read = readValue(f, sc.val(f), false, sc)
		}
		if st.When.Always() {
			body = append(body, read...)
			continue
		}
		var absent defaultBlocks
		for _, f := range st.Fields {
			absent.add(f, gomodel.Outside(st.When), sc)
		}
		if code := absent.code(); len(code) > 0 {
			body = append(body, If(gomodel.CondExpr(st.When)).Block(read...).Else().Block(code...))
		} else {
			body = append(body, If(gomodel.CondExpr(st.When)).Block(read...))
		}
	}
	body = append(defaults.code(), body...)
	if s.HasTags {
		body = append(body, readTagSection(s, sc)...)
	}
	return body
}

// defaultBlocks gathers the defaults of fields at versions where they are
// neither in place nor tagged, one block per condition.
type defaultBlocks []*defaultBlock

type defaultBlock struct {
	notTagged plan.Cond // the fields are not tagged (unless static)
	stmts     []Code
}

// add sets f to its default at the versions w where it is not in place,
// unless it is tagged there (the tag section then sets it).
func (b *defaultBlocks) add(f *plan.Field, w schema.Versions, sc scope) {
	tagged := gomodel.Rebase(f.Tagged, w)
	if tagged.Always() {
		return
	}
	def := sc.Names.SetDefault(f.Schema, sc.val(f))
	for _, g := range *b {
		if g.notTagged == tagged || g.notTagged.Never() && tagged.Never() {
			g.stmts = append(g.stmts, def...)
			return
		}
	}
	*b = append(*b, &defaultBlock{notTagged: tagged, stmts: def})
}

func (b defaultBlocks) code() []Code {
	var out []Code
	for _, g := range b {
		if g.notTagged.Never() {
			out = append(out, g.stmts...)
		} else {
			out = append(out, If(gomodel.NotCondExpr(g.notTagged)).Block(g.stmts...))
		}
	}
	return out
}

// readRun reads a run of fixed-width fields: a single field with its own
// read, several from one window (runtime.Decoder.Fixed) with one bounds
// check; a window too short names its field through FailFixed.
func readRun(st plan.Step, sc scope) []Code {
	if len(st.Fields) == 1 {
		f := st.Fields[0]
		return []Code{List(sc.val(f), Id("off")).Op("=").Add(sc.read(primitiveKinds[f.Schema.Type.Kind], Id("off"), Lit(f.Schema.Name)))}
	}
	reads, width := fixedReads(st, sc)
	var fields []string
	for _, f := range st.Fields {
		fields = append(fields, fmt.Sprintf("%s:%d", f.Schema.Name, f.Width))
	}
	reads = append(reads, Id("off").Op("+=").Lit(width))
	// The hint proves p's length once, for the reads that follow.
	reads = append([]Code{Id("_").Op("=").Id("p").Index(Lit(width - 1))}, reads...)
	return []Code{
		If(Id("p").Op(":=").Id("d").Dot("Fixed").Call(Id("off"), Lit(width)), Id("p").Op("!=").Nil()).Block(reads...).Else().Block(
			Id("off").Op("=").Id("d").Dot("FailFixed").Call(Id("off"), Lit(strings.Join(fields, " "))),
		),
	}
}

// fixedReads assigns the fields of the run st from the window p, and
// returns the run's width.
func fixedReads(st plan.Step, sc scope) (reads []Code, width int) {
	for _, f := range st.Fields {
		reads = append(reads, sc.val(f).Op("=").Add(decodeFixed(f.Schema.Type.Kind, width)))
		width += f.Width
	}
	return reads, width
}

// fixedElem is the fast path of an array element made of fixed-width
// fields only, with no tagged field, where the version is flexible: when
// its window and an empty tag section (one zero byte) are there, one
// bounds check reads it all and the loop goes on to the next element.
// Anything else falls through to the element's general code. Such
// elements (API versions, partition errors) come by the hundred.
func fixedElem(s *plan.Struct, sc scope) []Code {
	if !s.HasTags || len(s.Tagged) > 0 || s.Flexible.Never() || len(s.Steps) != 1 {
		return nil
	}
	st := s.Steps[0]
	if !st.Run || !st.When.Always() {
		return nil
	}
	reads, width := fixedReads(st, sc)
	unknown := sc.r().Dot("UnknownTags")
	reads = append(reads,
		unknown.Clone().Op("=").Add(unknown.Clone()).Index(Empty(), Lit(0)),
		Id("off").Op("+=").Lit(width+1),
		Continue(),
	)
	test := Id("p").Op("!=").Nil().Op("&&").Id("p").Index(Lit(width)).Op("==").Lit(0)
	if !s.Flexible.Always() {
		test = gomodel.CondExpr(s.Flexible).Op("&&").Add(test)
	}
	return []Code{
		Comment("With an empty tag section, one bounds check reads the element."),
		If(Id("p").Op(":=").Id("d").Dot("Fixed").Call(Id("off"), Lit(width+1)), test).Block(reads...),
	}
}

// readTagSection reads the tag section where the version is flexible; where
// it is not, only the unknown tags are reset (the in-place steps have set
// every tagged field to its default).
func readTagSection(s *plan.Struct, sc scope) []Code {
	unknown := sc.r().Dot("UnknownTags")
	reset := unknown.Clone().Op("=").Add(unknown.Clone()).Index(Empty(), Lit(0))
	var section []Code
	f := s.Flexible
	if len(s.Tagged) == 0 {
		// Reset, then append what the section holds (a single zero byte,
		// mostly, which Tags reads inline).
		return append([]Code{reset}, gomodel.Guarded(f, func() []Code {
			return []Code{Id("off").Op("=").Add(sc.read("Tags", Id("off"), Op("&").Add(unknown.Clone())))}
		})...)
	}
	section = readKnownTags(s, sc)
	switch {
	case f.Always():
		return section
	case f.Never():
		return []Code{reset}
	case sc.array == nil && len(s.Tagged) > 0:
		// The section is the struct's last part: return early where the
		// version has none, so that it is not nested in an if.
		return append([]Code{If(gomodel.NotCondExpr(f)).Block(reset, Return(Id("off")))}, section...)
	}
	return []Code{If(gomodel.CondExpr(f)).Block(section...).Else().Block(reset)}
}

// readKnownTags reads a tag section with known tagged fields: each is read
// where the version has it tagged (elsewhere its tag is an error), and
// those not seen are set to their defaults after the loop, so that decoding
// into a used struct reuses what the fields hold.
func readKnownTags(s *plan.Struct, sc scope) []Code {
	unknown := sc.r().Dot("UnknownTags")
	track := len(s.Tagged) <= 64
	out := []Code{unknown.Clone().Op("=").Add(unknown.Clone()).Index(Empty(), Lit(0))}
	if track {
		out = append(out, Var().Id("seen").Uint64())
	}
	var cases, after []Code
	for i, p := range s.Tagged {
		val := sc.val(p)
		invalid := Id("off").Op("=").Id("d").Dot("InvalidTag").Call(Id("off"), Id("tag"), Id("version"), Lit(p.Schema.Name))
		read := readValue(p, val.Clone(), true, sc)
		bit := Lit(uint64(1) << uint(i))
		if track {
			read = append(read, Id("seen").Op("|=").Add(bit.Clone()))
		}
		var body []Code
		switch {
		case p.Tagged.Always():
			body = read
		case p.Tagged.Never():
			body = []Code{invalid}
		default:
			body = []Code{If(gomodel.CondExpr(p.Tagged)).Block(read...).Else().Block(invalid)}
		}
		cases = append(cases, Case(Lit(p.Schema.Tag)).Block(body...))
		if p.Tagged.Never() {
			continue
		}
		def := sc.Names.SetDefault(p.Schema, val.Clone())
		if !track {
			out = append(out, def...) // before the loop: set again when read
			continue
		}
		notSeen := Id("seen").Op("&").Add(bit).Op("==").Lit(0)
		// Where the field is in place at a flexible version, it was read there.
		inPlace := gomodel.Rebase(p.InPlace, p.Tagged.Within)
		switch {
		case inPlace.Never():
			after = append(after, If(notSeen).Block(def...))
		case !inPlace.Always():
			after = append(after, If(Parens(gomodel.NotCondExpr(inPlace)).Op("&&").Add(notSeen)).Block(def...))
		}
	}
	cases = append(cases, Default().Block(
		List(unknown.Clone(), Id("off")).Op("=").Id("d").Dot("UnknownTag").Call(Id("off"), unknown.Clone(), Id("tag"), Id("size")),
	))
	out = append(out,
		Var().Id("numTags").Int(),
		For(
			List(Id("numTags"), Id("off")).Op("=").Id("d").Dot("TagCount").Call(Id("off")),
			Id("numTags").Op(">").Lit(0).Op("&&").Op("!").Id("d").Dot("Failed").Call(),
			Id("numTags").Op("--"),
		).Block(
			List(Id("tag"), Id("size"), Id("next")).Op(":=").Id("d").Dot("TagHeader").Call(Id("off")),
			Id("off").Op("=").Id("next"),
			Switch(Id("tag")).Block(cases...),
		),
	)
	return append(out, after...)
}
