package schema

import "strings"

// validate applies Kafka's semantic rules (docs/protocol.md, "Spec rules") to a loaded spec.
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
	a := lookup(v.l.objects[obj], key)
	switch {
	case a == nil:
		return obj
	case value:
		return posOf(a.value)
	}
	return a.pos
}

// hasAttr reports whether the object at obj gives attribute key a value
// (like Jackson, it treats a JSON null as absent).
func (v *validator) hasAttr(obj Pos, key string) bool {
	return hasKey(v.l.objects[obj], key)
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
	if s.Removed() {
		// Kafka's generator reads nothing more of a removed API's spec.
		return
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
	v.coordinatorRecord()
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

// coordinatorRecord checks the coordinator record types of Kafka 4.1
// (rules 48-50, in Java's words): both carry the record type as apiKey,
// and a key is version 0 only, never flexible.
func (v *validator) coordinatorRecord() {
	s := v.s
	switch s.Type {
	case TypeCoordinatorKey:
		if !s.HasAPIKey && !v.hasAttr(s.Pos, "apiKey") {
			v.errorf(s.Pos, s.Name, "The ApiKey must be set for messages %s with type `coordinator-key`", s.Name)
		}
		if s.ValidVersions != (Versions{0, 0}) {
			v.errorf(v.attr(s.Pos, "validVersions", true), s.Name, "The Versions must be set to `0` for messages %s with type `coordinator-key`", s.Name)
		}
		if !s.FlexibleVersions.Empty() {
			v.errorf(v.attr(s.Pos, "flexibleVersions", true), s.Name, "The FlexibleVersions are not supported for messages %s with type `coordinator-key`", s.Name)
		}
	case TypeCoordinatorValue:
		if !s.HasAPIKey && !v.hasAttr(s.Pos, "apiKey") {
			v.errorf(s.Pos, s.Name, "The ApiKey must be set for messages with type `coordinator-value`")
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

// reachable reports struct-typed fields that exist in no version of their
// struct (rule 43): Kafka's generator cannot write the reader of a struct
// used in no version. A field of another type outside its struct's versions
// is accepted, as Kafka 4.1 does: it is never read or written and keeps
// its default (ShareFetchRequest 4.1 keeps PartitionMaxBytes of its removed
// version 0; docs/protocol.md, "Fields outside the valid versions").
func (v *validator) reachable() {
	for _, d := range v.defs {
		if d.st.Used.Empty() {
			continue
		}
		for _, f := range d.st.Fields {
			sub := d.subject + "." + f.Name
			if f.Name == "" || v.bad[sub] || f.Versions.Empty() || !f.Present.Empty() || f.Type.Kind != KindStruct {
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
