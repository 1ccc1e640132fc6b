package schema

import (
	"fmt"
	"sort"
	"strings"
)

// validate applies Kafka's semantic rules (spec-facts §5.1) to a loaded spec.
// It runs even when loading reported problems, so that one pass reports them
// all: fields whose loading failed are skipped, and the rules that need the
// resolved struct graph run only when resolve succeeded. Rule texts follow
// Kafka's generator where it has one.
func (l *loader) validate() {
	v := &validator{l: l, s: l.spec, bad: map[string]bool{}, subjects: map[*Field]string{}}
	for _, d := range l.diags {
		v.bad[d.Subject] = true
	}
	v.message()
	s := l.spec
	if s.Root != nil {
		v.structDef(s.Root, s.Name, s.Name, true)
	}
	for _, c := range s.CommonStructs {
		v.structDef(c, s.Name+"."+c.Name, c.Name, false)
	}
	if l.resolved {
		v.cycles()
		v.reachable()
	}
}

type validator struct {
	l *loader
	s *Spec
	// bad holds the subjects that loading already reported on.
	bad map[string]bool
	// subjects names every field as diagnostics do ("Message.Outer.Inner").
	subjects map[*Field]string
	// defs lists every struct definition with its subject, in file order.
	defs []structDef
}

type structDef struct {
	st      *Struct
	subject string
}

func (v *validator) errorf(p Pos, subject, format string, args ...any) {
	v.l.errorAt(p, subject, format, args...)
}

// attr locates attribute key of the JSON object at obj (the spec's or a
// field's): the key's position, or the value's when value is set. A missing
// attribute gives obj. Duplicated keys resolve to the last one, which is the
// one Jackson keeps.
func (v *validator) attr(obj Pos, key string, value bool) Pos {
	m := v.member(obj, key)
	switch {
	case m == nil:
		return obj
	case value:
		return m.value.pos
	}
	return m.pos
}

// hasAttr reports whether the object at obj gives attribute key a value
// (like Jackson, it treats a JSON null as absent).
func (v *validator) hasAttr(obj Pos, key string) bool {
	m := v.member(obj, key)
	return m != nil && m.value.kind != jsonNull
}

// member finds attribute key of the object the loader read at obj.
func (v *validator) member(obj Pos, key string) *member {
	if o, ok := v.l.objects[obj]; ok {
		return o.lookup(key)
	}
	return nil
}

// message checks the top-level attributes (rules 7-10, 44, 45, 47).
func (v *validator) message() {
	s := v.s
	sub := s.Name
	// Rule 7.
	if !s.FlexibleVersions.Empty() && !s.FlexibleVersions.Open() {
		v.errorf(v.attr(s.Pos, "flexibleVersions", true), sub,
			"Message %s specifies flexibleVersions %s, which is not open-ended. flexibleVersions must be either none, or an open-ended range (that ends with a plus sign).",
			s.Name, s.FlexibleVersions)
	}
	if s.Type != "" && s.Type != TypeRequest {
		// Rule 8 (Kafka's text names the attribute `requestScope`).
		if len(s.Listeners) > 0 {
			v.errorf(v.attr(s.Pos, "listeners", false), sub,
				"The `listeners` property is only valid for messages with type `request`.")
		}
		// Rule 9.
		if s.LatestVersionUnstable {
			v.errorf(v.attr(s.Pos, "latestVersionUnstable", false), sub,
				"The `latestVersionUnstable` property is only valid for messages with type `request`.")
		}
	}
	// Rule 10.
	if s.ValidVersions.Open() {
		v.errorf(v.attr(s.Pos, "validVersions", true), sub,
			"Message %s does not specify a maximum version.", s.Name)
	}
	// Rules 44 and 47: the API key or record type.
	if !s.HasAPIKey && !v.hasAttr(s.Pos, "apiKey") {
		switch s.Type {
		case TypeRequest, TypeResponse:
			v.errorf(s.Pos, sub, "A %s must have an apiKey.", s.Type)
		case TypeMetadata:
			v.errorf(s.Pos, sub, "A metadata record must have an apiKey (its record type).")
		}
	}
	// Rule 45.
	if s.Name != "" {
		for _, c := range []struct {
			typ    SpecType
			suffix string
		}{{TypeRequest, "Request"}, {TypeResponse, "Response"}} {
			if s.Type == c.typ && (!strings.HasSuffix(s.Name, c.suffix) || s.Name == c.suffix) {
				v.errorf(v.attr(s.Pos, "name", true), sub,
					"The name of a %s must be the API name followed by %q.", c.typ, c.suffix)
			}
		}
	}
}

// structDef checks one struct definition (the root, a common struct or an
// inline struct) and, recursively, the inline structs its fields define.
// structName is the name Kafka uses in its messages ("In X, ...").
func (v *validator) structDef(st *Struct, subject, structName string, top bool) {
	v.defs = append(v.defs, structDef{st, subject})
	v.structRules(st, subject, structName)
	for _, f := range st.Fields {
		sub := subject + "." + f.Name
		v.subjects[f] = sub
		if f.Name != "" && !v.bad[sub] {
			v.field(f, sub, top)
		}
		if f.Struct != nil && f.Struct.Parent == f {
			v.structDef(f.Struct, sub, f.Struct.Name, false)
		}
	}
}

// structRules: unique field names (12), unique tags (13), contiguous tags (14).
func (v *validator) structRules(st *Struct, subject, structName string) {
	names := map[string]*Field{}
	folded := map[string]*Field{}
	tags := map[int]*Field{}
	anyBad := false
	for _, f := range st.Fields {
		sub := subject + "." + f.Name
		if v.bad[sub] {
			anyBad = true
		}
		if f.Name != "" {
			if _, dup := names[f.Name]; dup {
				v.errorf(v.attr(f.Pos, "name", true), sub,
					"In %s, field %s has a duplicate name %s. All field names must be unique.", structName, f.Name, f.Name)
			} else if other, dup := folded[capitalize(f.Name)]; dup {
				// Kafka's Java (and Go) identifiers capitalise the first letter.
				v.errorf(v.attr(f.Pos, "name", true), sub,
					"In %s, field %s has a duplicate name %s once the first letter is capitalised. All field names must be unique.",
					structName, f.Name, other.Name)
			}
			names[f.Name] = f
			if _, seen := folded[capitalize(f.Name)]; !seen {
				folded[capitalize(f.Name)] = f
			}
		}
		if f.HasTag && f.Tag >= 0 {
			if _, dup := tags[f.Tag]; dup {
				v.errorf(v.attr(f.Pos, "tag", true), sub,
					"In %s, field %s has a duplicate tag ID %d. All tags IDs must be unique.", structName, f.Name, f.Tag)
			} else {
				tags[f.Tag] = f
			}
		}
	}
	if anyBad || len(tags) == 0 {
		return
	}
	for i := 0; i < len(tags); i++ {
		if _, ok := tags[i]; ok {
			continue
		}
		// Report at the field holding the lowest tag above the gap.
		var next *Field
		for t, f := range tags {
			if t > i && (next == nil || t < next.Tag) {
				next = f
			}
		}
		v.errorf(v.attr(next.Pos, "tag", true), subject+"."+next.Name,
			"In %s, the tag IDs are not contiguous. Make use of tag %d before using any higher tag IDs.", structName, i)
		return
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func validFieldName(name string) bool {
	for i, c := range name {
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return name != ""
}

// entityBase is the element type each entityType requires (rule 19).
var entityBase = map[string]string{
	"transactionalId": "string",
	"groupId":         "string",
	"topicName":       "string",
	"producerId":      "int64",
	"brokerId":        "int32",
}

// field checks one field's own attributes (rules 15, 18, 19, 21-34, 39-42).
func (v *validator) field(f *Field, sub string, top bool) {
	t := f.Type
	elem := t.Raw
	if t.Array {
		elem = strings.TrimPrefix(t.Raw, "[]")
	}
	// Rule 15.
	if !validFieldName(f.Name) {
		v.errorf(v.attr(f.Pos, "name", true), sub, "Invalid field name %s", f.Name)
	}
	// Rule 18.
	if !f.NullableVersions.Empty() && !t.CanBeNullable() {
		v.errorf(v.attr(f.Pos, "nullableVersions", true), sub, "Type %s cannot be nullable.", t.Raw)
	}
	// Rule 19.
	if base, ok := entityBase[f.EntityType]; ok && elem != base {
		v.errorf(v.attr(f.Pos, "entityType", true), sub,
			"Field %s has entity type %s, but field type %s, which does not match.", f.Name, f.EntityType, elem)
	}
	// Rules 21 and 40.
	if f.HasFlexibleVersions {
		if t.Array || (t.Kind != KindString && t.Kind != KindBytes) {
			v.errorf(v.attr(f.Pos, "flexibleVersions", true), sub,
				"Invalid flexibleVersions override for %s. Only fields of type string or bytes can specify a flexibleVersions override.", f.Name)
		} else if !v.s.FlexibleVersions.Covers(f.FlexibleVersions) {
			v.errorf(v.attr(f.Pos, "flexibleVersions", true), sub,
				"The flexible versions for field %s are %s, which are not a subset of the flexible versions for the message as a whole, which are %s",
				f.Name, f.FlexibleVersions, v.s.FlexibleVersions)
		}
	}
	// Rule 22.
	if f.HasTag && f.MapKey {
		v.errorf(v.attr(f.Pos, "mapKey", false), sub, "Tagged fields cannot be used as keys.")
	}
	// Rules 23-27.
	v.tagRules(f, sub)
	// Rule 28.
	if f.ZeroCopy && (t.Array || t.Kind != KindBytes) {
		v.errorf(v.attr(f.Pos, "zeroCopy", false), sub,
			"Invalid zeroCopy value for %s. Only fields of type bytes can use zeroCopy flag.", f.Name)
	}
	// Rules 29-34.
	if f.Default != "" {
		v.defaultRules(f, sub)
	}
	// Rule 39.
	if top && f.MapKey {
		v.errorf(v.attr(f.Pos, "mapKey", false), sub, "Cannot set mapKey on top level fields.")
	}
	// Rule 41.
	if !f.TaggedVersions.Empty() {
		flexible := v.s.FlexibleVersions
		if f.HasFlexibleVersions {
			flexible = f.FlexibleVersions
		}
		if !flexible.Covers(f.TaggedVersions) {
			v.errorf(v.attr(f.Pos, "taggedVersions", true), sub,
				"Field %s specifies tagged versions %s that are not a subset of the flexible versions %s",
				f.Name, f.TaggedVersions, flexible)
		}
	}
	// Rule 42 (arrays of arrays are rejected by ParseType).
	if t.Kind == KindRecords {
		if t.Array {
			v.errorf(v.attr(f.Pos, "type", true), sub, "Arrays of records are not supported.")
		} else if f.HasTag {
			v.errorf(v.attr(f.Pos, "tag", false), sub, "A records field cannot be tagged.")
		}
	}
}

// tagRules is FieldSpec.checkTagInvariants (rules 23-27).
func (v *validator) tagRules(f *Field, sub string) {
	if !f.HasTag {
		if !f.TaggedVersions.Empty() {
			v.errorf(v.attr(f.Pos, "taggedVersions", false), sub,
				"Field %s does not specify a tag, but specifies tagged versions of %s. Please specify a tag, or remove the taggedVersions.",
				f.Name, f.TaggedVersions)
		}
		return
	}
	if f.Tag < 0 {
		v.errorf(v.attr(f.Pos, "tag", true), sub,
			"Field %s specifies a tag of %d. Tags cannot be negative.", f.Name, f.Tag)
	}
	if f.TaggedVersions.Empty() {
		v.errorf(v.attr(f.Pos, "tag", false), sub,
			"Field %s specifies a tag of %d, but has no tagged versions. If a tag is specified, taggedVersions must be specified as well.",
			f.Name, f.Tag)
		return
	}
	nullableTagged := f.NullableVersions.Intersect(f.TaggedVersions)
	if !nullableTagged.Empty() && nullableTagged != f.TaggedVersions {
		v.errorf(v.attr(f.Pos, "nullableVersions", true), sub,
			"Field %s specifies nullableVersions %s and taggedVersions %s. Either all tagged versions must be nullable, or none must be.",
			f.Name, f.NullableVersions, f.TaggedVersions)
	}
	if !f.TaggedVersions.Open() {
		v.errorf(v.attr(f.Pos, "taggedVersions", true), sub,
			"Field %s specifies taggedVersions %s, which is not open-ended. taggedVersions must be either none, or an open-ended range (that ends with a plus sign).",
			f.Name, f.TaggedVersions)
	}
	if !f.Versions.Covers(f.TaggedVersions) {
		v.errorf(v.attr(f.Pos, "taggedVersions", true), sub,
			"Field %s specifies taggedVersions %s, and versions %s. taggedVersions must be a subset of versions.",
			f.Name, f.TaggedVersions, f.Versions)
	}
}

// defaultRules is FieldSpec.fieldDefault (rules 29-34) for a non-empty default.
func (v *validator) defaultRules(f *Field, sub string) {
	t := f.Type
	at := v.attr(f.Pos, "default", true)
	invalid := func(err error) {
		v.errorf(at, sub, "Invalid default for %s field %s: %v", t.Raw, f.Name, err)
	}
	nullDefault := func() {
		if f.Default == "null" && !f.NullableVersions.Covers(f.Versions) {
			v.errorf(at, sub, "null cannot be the default for field %s, because not all versions of this field are nullable.", f.Name)
		}
	}
	switch {
	case t.Array:
		if f.Default == "null" {
			nullDefault()
		} else {
			v.errorf(at, sub, "Invalid default for array field %s. The only valid default for an array field is the empty array or null.", f.Name)
		}
	case t.Kind == KindBool:
		if _, err := ParseBoolDefault(f.Default); err != nil {
			v.errorf(at, sub, "Invalid default for boolean field %s: %s", f.Name, f.Default)
		}
	case t.Kind == KindInt8, t.Kind == KindInt16, t.Kind == KindInt32, t.Kind == KindInt64:
		if _, err := ParseIntDefault(f.Default, t.Kind.FixedSize()*8); err != nil {
			invalid(err)
		}
	case t.Kind == KindUint16, t.Kind == KindUint32:
		if _, err := ParseUintDefault(f.Default, t.Kind.FixedSize()*8); err != nil {
			invalid(err)
		}
	case t.Kind == KindUUID:
		if _, err := ParseUUIDDefault(f.Default); err != nil {
			invalid(err)
		}
	case t.Kind == KindFloat64:
		if _, err := ParseFloatDefault(f.Default); err != nil {
			invalid(err)
		}
	case t.Kind == KindString:
		nullDefault()
	case t.Kind == KindBytes:
		if f.Default == "null" {
			nullDefault()
		} else {
			v.errorf(at, sub, "Invalid default for bytes field %s. The only valid default for a bytes field is empty or null.", f.Name)
		}
	case t.Kind == KindRecords:
		// Kafka ignores it: a records default is always null.
	case t.Kind == KindStruct:
		if f.Default == "null" {
			nullDefault()
		} else {
			v.errorf(at, sub, "Invalid default for struct field %s. The only valid default for a struct field is the empty struct or null.", f.Name)
		}
	}
}

// cycles reports structs that contain themselves, directly or through other
// structs (as a field, an array element or deeper).
func (v *validator) cycles() {
	const (
		white = iota
		grey
		black
	)
	color := map[*Struct]int{}
	var stack []*Struct
	var visit func(st *Struct)
	visit = func(st *Struct) {
		color[st] = grey
		stack = append(stack, st)
		for _, f := range st.Fields {
			next := f.Struct
			if next == nil {
				continue
			}
			switch color[next] {
			case white:
				visit(next)
			case grey:
				var path []string
				for i := len(stack) - 1; i >= 0; i-- {
					path = append(path, stack[i].Name)
					if stack[i] == next {
						break
					}
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				sub := v.subjects[f]
				if sub == "" {
					sub = v.s.Name
				}
				v.errorf(v.attr(f.Pos, "type", true), sub,
					"Struct %s contains itself: %s -> %s.", next.Name, strings.Join(path, " -> "), next.Name)
			}
		}
		stack = stack[:len(stack)-1]
		color[st] = black
	}
	for _, d := range v.defs {
		if color[d.st] == white {
			visit(d.st)
		}
	}
}

// reachable reports fields that exist in no version of their struct (rule
// 43): a field whose own versions do not meet the versions in which its
// struct is used.
func (v *validator) reachable() {
	for _, d := range v.defs {
		if d.st.Used.Empty() {
			continue
		}
		for _, f := range d.st.Fields {
			sub := d.subject + "." + f.Name
			if f.Name == "" || v.bad[sub] || f.Versions.Empty() || !f.Present.Empty() {
				continue
			}
			at := f.Pos
			if v.hasAttr(f.Pos, "versions") {
				at = v.attr(f.Pos, "versions", true)
			}
			v.errorf(at, sub, "Version ranges %s and %s have no versions in common.", d.st.Used, f.Versions)
		}
	}
}

// CheckPackage applies the rules that span the files of one package: unique
// API keys, a response for every request and a request for every response
// (rules 44, 46), unique metadata record types (rule 47), and unique message
// names. Specs without an apiKey were reported by Load and are skipped here.
func CheckPackage(specs []*Spec) Diagnostics {
	var diags Diagnostics
	report := func(s *Spec, format string, args ...any) {
		line, col := s.Position(s.Pos)
		diags = append(diags, Diagnostic{File: s.File, Line: line, Col: col, Subject: s.Name, Text: fmt.Sprintf(format, args...)})
	}
	names := map[string]*Spec{}
	requests := map[int16]*Spec{}
	responses := map[int16]*Spec{}
	records := map[int16]*Spec{}
	for _, s := range specs {
		if s == nil {
			continue
		}
		if prev, dup := names[s.Name]; dup {
			report(s, "Duplicate message name %s: %s also defines it.", s.Name, prev.File)
		} else {
			names[s.Name] = s
		}
		if !s.HasAPIKey {
			continue
		}
		switch s.Type {
		case TypeRequest, TypeResponse:
			m := requests
			if s.Type == TypeResponse {
				m = responses
			}
			if prev, dup := m[s.APIKey]; dup {
				report(s, "Found more than one %s with API key %d. Original claimant: %s (%s).", s.Type, s.APIKey, prev.Name, prev.File)
			} else {
				m[s.APIKey] = s
			}
		case TypeMetadata:
			if prev, dup := records[s.APIKey]; dup {
				report(s, "Duplicate metadata record entry for type %d. Original claimant: %s. New claimant: %s", s.APIKey, prev.Name, s.Name)
			} else {
				records[s.APIKey] = s
			}
		}
	}
	for key, req := range requests {
		if _, ok := responses[key]; !ok {
			report(req, "failed to find response for API key %d", key)
		}
	}
	for key, resp := range responses {
		if _, ok := requests[key]; !ok {
			report(resp, "failed to find request for API key %d", key)
		}
	}
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i], diags[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Text < b.Text
	})
	return diags
}
