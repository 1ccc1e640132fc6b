package generator

import (
	"fmt"
	"path/filepath"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// The JSON printer (kafkagen -json) writes, per spec, a file of its own
// (fetch_request_json.go) with the message in the form of Kafka's generated
// JsonConverter classes, so that packages generated without -json carry
// none of it. It reads the schema model and needs from the type printer
// only the Go names it chose (jsonNames), and from the generated types
// their Reset and isDefault methods.

// jsonNames is what the JSON printer needs of one spec's Go types.
type jsonNames struct {
	spec   *schema.Spec
	types  map[*schema.Struct]string // the root and every struct
	fields map[*schema.Field]string
	// tags: structs carry UnknownTags (the message has flexible versions).
	tags bool
	// versions are the versions generated, which pruning may narrow (the
	// message's MinVersion up); within maps each struct reachable at them
	// to the range its methods run at. Both come from the codec's plan, so
	// that JSON accepts exactly the versions the binary codec does.
	versions schema.Versions
	within   map[*schema.Struct]schema.Versions
}

// jsonMethods are the methods -json adds to a top-level message; a spec
// field with one of these Go names would clash with them.
var jsonMethods = []string{"AppendJSON", "DecodeJSON", "MarshalJSON", "UnmarshalJSON"}

// jsonFileName is the file of a spec's JSON code, beside its main file.
func jsonFileName(goFile string) string { return strings.TrimSuffix(goFile, ".go") + "_json.go" }

// addJSON generates the JSON file of every spec into files, which holds the
// rest of the package as Generate made it.
func addJSON(files map[string][]byte, pkg string, specs []*schema.Spec) error {
	return addJSONWith(files, pkg, specs, Prune{})
}

// addJSONWith is addJSON for a package GenerateWith made with opts: the
// JSON methods accept the versions the binary codec does (MinVersion()
// up) and refuse the others with runtime.ErrUnsupportedVersion.
func addJSONWith(files map[string][]byte, pkg string, specs []*schema.Spec, opts Prune) error {
	pm, err := buildModel(pkg, specs)
	if err != nil {
		return err
	}
	for _, fm := range pm.files {
		name := jsonFileName(fm.goFile)
		if _, clash := files[name]; clash {
			return fmt.Errorf("%s: the JSON code of %s would be written to %s, which another spec uses", fm.spec.File, fm.spec.Name, name)
		}
		n := jsonNamesOf(fm)
		if err := n.planVersions(opts.minVersionOf(fm.spec)); err != nil {
			return fmt.Errorf("%s: %w", fm.spec.File, err)
		}
		src, err := emitJSONFile(pkg, n)
		if err != nil {
			return fmt.Errorf("%s: %w", fm.spec.File, err)
		}
		files[name] = src
	}
	return nil
}

// jsonNamesOf takes the Go names of a spec from the type printer's model.
func jsonNamesOf(fm *fileModel) *jsonNames {
	n := &jsonNames{
		spec:   fm.spec,
		types:  map[*schema.Struct]string{},
		fields: map[*schema.Field]string{},
		tags:   fm.top.hasTags,
	}
	for _, sm := range fm.structs {
		n.types[sm.s] = sm.goName
		for _, f := range sm.fields {
			n.fields[f.f] = f.goName
		}
	}
	return n
}

// emitJSONFile renders the JSON methods of one spec.
func emitJSONFile(pkg string, n *jsonNames) ([]byte, error) {
	root := n.spec.Root
	for _, f := range root.Fields {
		for _, m := range jsonMethods {
			if n.fields[f] == m {
				return nil, fmt.Errorf("field %s has the Go name %s, which -json uses for a method", f.Name, m)
			}
		}
	}
	f := NewFile(pkg)
	f.HeaderComment(header(filepath.Base(n.spec.File) + " (JSON)"))
	f.ImportName(RuntimePath, "runtime")
	emitJSONTop(f, n)
	for _, st := range append([]*schema.Struct{root}, n.spec.Structs...) {
		keys := map[string]string{}
		for _, fld := range st.Fields {
			if prev, ok := keys[fld.JSONKey()]; ok {
				return nil, fmt.Errorf("%s: fields %s and %s have the same JSON key %q", st.Name, prev, fld.Name, fld.JSONKey())
			}
			keys[fld.JSONKey()] = fld.Name
		}
		w := &jsonStruct{n: n, s: st, name: n.types[st], within: n.structWithin(st)}
		w.emitAppend(f)
		w.emitDecode(f)
	}
	return render(f)
}

// planVersions sets the versions generated and each struct's range from
// the codec's plan of the message from version minVersion up.
func (n *jsonNames) planVersions(minVersion int16) error {
	m := plan.Build(n.spec, plan.Options{MinVersion: minVersion})
	if m.Versions.Empty() {
		return fmt.Errorf("%s has no version from %d (valid versions %s)", n.spec.Name, minVersion, n.spec.ValidVersions)
	}
	n.versions = m.Versions
	n.within = map[*schema.Struct]schema.Versions{}
	for _, s := range m.Structs {
		n.within[s.Schema] = s.Within
	}
	return nil
}

// structWithin is the range of versions a struct's methods run at. A struct
// no field reaches at the versions generated gets methods for them all:
// they are never called, but compile (a parent refers to them under
// conditions that never hold).
func (n *jsonNames) structWithin(st *schema.Struct) schema.Versions {
	if w, ok := n.within[st]; ok && !w.Empty() {
		return w
	}
	return n.versions
}

// emitJSONTop writes the exported JSON methods of the message.
func emitJSONTop(f *File, n *jsonNames) {
	spec := n.spec
	name := n.types[spec.Root]
	minV, maxV := int(n.versions.Lo), int(n.versions.Hi)
	recv := func() *Statement { return Params(Id("m").Op("*").Id(name)) }
	unsupported := func(op string, ret ...Code) *Statement {
		return If(Id("version").Op("<").Lit(minV).Op("||").Id("version").Op(">").Lit(maxV)).Block(
			Return(append(ret, rt("UnsupportedVersion").Call(Lit(op), Lit(spec.Name), Id("version"), Lit(minV), Lit(maxV)))...),
		)
	}
	docComment(f, "AppendJSON appends m as Kafka's generated JsonConverter writes it at\n"+
		"version: keys as in the spec, fields present at version only, tagged\n"+
		"fields only when they differ from their default. Bytes and records are\n"+
		"base64 (records by size with opts.RecordsSize) and unknown tagged fields\n"+
		"are kept under \"_unknownTaggedFields\" (left out with opts.OmitUnknownTags).\n"+
		"On error dst is returned unchanged.")
	f.Func().Add(recv()).Id("AppendJSON").Params(Id("dst").Index().Byte(), Id("version").Int16(), Id("opts").Add(rt("JSONOptions"))).Params(Index().Byte(), Error()).Block(
		unsupported("marshal JSON", Id("dst")),
		List(Id("b"), Err()).Op(":=").Id("m").Dot("appendJSON").Call(Id("dst"), Id("version"), Op("&").Id("opts")),
		If(Err().Op("!=").Nil()).Block(Return(Id("dst"), rt("FinishJSON").Call(Err(), Lit(spec.Name), Id("version")))),
		Return(Id("b"), Nil()),
	)
	f.Line()
	docComment(f, "DecodeJSON resets m and reads it from JSON written at version, as\n"+
		"AppendJSON writes it (records by size excepted). Every key must be a field\n"+
		"present at version, every field present and not tagged at version must\n"+
		"be there, and errors name the field path and the byte offset.")
	f.Func().Add(recv()).Id("DecodeJSON").Params(Id("data").Index().Byte(), Id("version").Int16()).Error().Block(
		unsupported("unmarshal JSON"),
		Comment("Start from a zero message: nothing may keep pointing into a buffer"),
		Comment("that an earlier DecodeAliased read."),
		Op("*").Id("m").Op("=").Id(name).Values(),
		Id("m").Dot("Reset").Call(),
		Var().Id("r").Add(rt("JSONReader")),
		Id("r").Dot("Init").Call(Id("data"), Id("version")),
		Id("m").Dot("decodeJSON").Call(Op("&").Id("r"), Id("version")),
		Return(Id("r").Dot("Finish").Call(Lit(spec.Name), Id("version"))),
	)
	f.Line()
	docCommentf(f, "MarshalJSON implements json.Marshaler: AppendJSON at the latest version\n(%d) with the default options. runtime.VersionedJSON marshals at another.", maxV)
	f.Func().Add(recv()).Id("MarshalJSON").Params().Params(Index().Byte(), Error()).Block(
		Return(Id("m").Dot("AppendJSON").Call(Nil(), Lit(maxV), rt("JSONOptions").Values())),
	)
	f.Line()
	docCommentf(f, "UnmarshalJSON implements json.Unmarshaler: DecodeJSON at the latest\nversion (%d). runtime.VersionedJSON unmarshals at another.", maxV)
	f.Func().Add(recv()).Id("UnmarshalJSON").Params(Id("data").Index().Byte()).Error().Block(
		Return(Id("m").Dot("DecodeJSON").Call(Id("data"), Lit(maxV))),
	)
	f.Line()
}

// jsonStruct prints the unexported JSON methods of one struct.
type jsonStruct struct {
	n      *jsonNames
	s      *schema.Struct
	name   string
	within schema.Versions
}

// cond is the Go condition "version is in vs" at the versions the struct's
// methods run at; always and never report conditions settled statically.
func (w *jsonStruct) cond(vs schema.Versions) (c *Statement, always, never bool) {
	within := w.within
	if vs.Covers(within) {
		return nil, true, false
	}
	if vs.Intersect(within).Empty() {
		return nil, false, true
	}
	if vs.Lo == vs.Hi {
		return Id("version").Op("==").Lit(int(vs.Lo)), false, false
	}
	var parts []Code
	if vs.Lo > within.Lo {
		parts = append(parts, Id("version").Op(">=").Lit(int(vs.Lo)))
	}
	if vs.Hi < within.Hi {
		parts = append(parts, Id("version").Op("<=").Lit(int(vs.Hi)))
	}
	c = Add(parts[0])
	for _, p := range parts[1:] {
		c = c.Op("&&").Add(p)
	}
	return c, false, false
}

// notCond is the Go condition "version is not in vs", for a range that
// neither covers nor misses the versions the struct's methods run at.
func (w *jsonStruct) notCond(vs schema.Versions) *Statement {
	if vs.Lo == vs.Hi {
		return Id("version").Op("!=").Lit(int(vs.Lo))
	}
	var parts []Code
	if vs.Lo > w.within.Lo {
		parts = append(parts, Id("version").Op("<").Lit(int(vs.Lo)))
	}
	if vs.Hi < w.within.Hi {
		parts = append(parts, Id("version").Op(">").Lit(int(vs.Hi)))
	}
	c := Add(parts[0])
	for _, p := range parts[1:] {
		c = c.Op("||").Add(p)
	}
	return c
}

// condExpr is cond as an expression (true or false when settled).
func (w *jsonStruct) condExpr(vs schema.Versions) *Statement {
	c, always, never := w.cond(vs)
	switch {
	case always:
		return True()
	case never:
		return False()
	}
	return c
}

// tagged are the versions at which a field is present and tagged.
func tagged(f *schema.Field) schema.Versions {
	if !f.HasTag {
		return schema.None
	}
	return f.Versions.Intersect(f.TaggedVersions)
}

// maxTag is the highest tag a struct defines, -1 when none.
func maxTag(st *schema.Struct) int {
	m := -1
	for _, f := range st.Fields {
		if f.HasTag {
			m = max(m, f.Tag)
		}
	}
	return m
}
