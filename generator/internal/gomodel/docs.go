package gomodel

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// FieldDoc documents a field from its spec: the about text, then its
// versions, nullability, tag and default.
func (p *Message) FieldDoc(pf *plan.Field) string {
	f := pf.Schema
	name := p.FieldName(pf)
	var facts []string
	facts = append(facts, "Versions: "+p.versionsNote(pf)+".")
	if f.Present.Empty() {
		// Kafka 4.1 keeps fields of removed versions in some specs.
		facts = append(facts, "In none of the versions this package serves: never read or written.")
	}
	if nv := f.NullableVersions.Intersect(f.Versions); !nv.Empty() {
		facts = append(facts, "Nullable: "+nv.String()+".")
	}
	if f.HasTag {
		facts = append(facts, fmt.Sprintf("Tag %d, tagged versions %s.", f.Tag, f.TaggedVersions))
	}
	if f.HasFlexibleVersions {
		facts = append(facts, "Flexible versions (own encoding): "+f.FlexibleVersions.String()+".")
	}
	switch {
	case f.DefaultValue.Null:
		facts = append(facts, "Default: null.")
	case f.HasDefault && f.Default != "":
		facts = append(facts, fmt.Sprintf("Default: %s.", f.Default))
	case f.Nullable():
		// Java's default of a nullable field is its empty value, not null:
		// say so, since a nil slice or a zero NullString is null.
		facts = append(facts, "Default: "+literalDefault(f)+" (New and Make set it; the zero value is null).")
	}
	if names := specialValuesOf(p.Plan.Spec.Name, f); names != "" {
		facts = append(facts, "Special values: "+names+".")
	}
	if f.Ignorable {
		facts = append(facts, "Ignorable: dropped silently when written at a version without it.")
	}
	about := strings.TrimSpace(f.About)
	head := name + " is " + lowerFirst(strings.TrimSuffix(about, "."))
	if about == "" {
		head = name + " is the spec field " + f.Name
	}
	if name != GoName(f.Name) || (about != "" && f.Name != name) {
		facts = append(facts, "Spec name: "+f.Name+".")
	}
	return head + ".\n" + strings.Join(facts, " ")
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	// Keep acronyms and names (ID, Kafka) as written.
	if len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z' {
		return s
	}
	if s[0] >= 'A' && s[0] <= 'Z' && !strings.HasPrefix(s, "I ") {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return s
}

// StructDoc documents a struct type.
func (p *Message) StructDoc(s *plan.Struct) string {
	spec := p.Plan.Spec
	name := p.TypeName(s)
	if s.Top {
		var kind string
		switch spec.Type {
		case schema.TypeRequest, schema.TypeResponse:
			kind = fmt.Sprintf("the Kafka %s %s (API key %d)", spec.Name, spec.Type, spec.APIKey)
		case schema.TypeMetadata:
			kind = fmt.Sprintf("the metadata record %s (record type %d)", spec.Name, spec.APIKey)
		case schema.TypeCoordinatorKey:
			kind = fmt.Sprintf("the key of the coordinator record %s (record type %d)", spec.Name, spec.APIKey)
		case schema.TypeCoordinatorValue:
			kind = fmt.Sprintf("the value of the coordinator record %s (record type %d)", spec.Name, spec.APIKey)
		case schema.TypeHeader:
			kind = fmt.Sprintf("the %s header", spec.Name)
		default:
			kind = fmt.Sprintf("the Kafka data structure %s", spec.Name)
		}
		doc := fmt.Sprintf("%s is %s.\nValid versions: %s; flexible versions: %s.", name, kind, spec.ValidVersions, spec.FlexibleVersions)
		if !spec.DeprecatedVersions.Empty() {
			doc += " Deprecated versions: " + spec.DeprecatedVersions.String() + "."
		}
		if spec.LatestVersionUnstable {
			doc += " The latest version is unstable."
		}
		if vs := s.Within; vs != spec.ValidVersions {
			doc += fmt.Sprintf("\nGenerated versions: %s (kafkagen -min-version); the others are refused\nwith runtime.ErrUnsupportedVersion.", vs)
		}
		return doc
	}
	where := "used by " + spec.Name
	if s.Schema.Common {
		where = "a common struct of " + spec.Name
	}
	return fmt.Sprintf("%s is the struct %s, %s (versions %s).", name, s.Schema.Name, where, s.Within)
}

// DocComment writes a // comment of one or more lines (jennifer would turn a
// multi-line Comment into a /* */ block).
func DocComment(f *jen.File, text string) {
	for _, line := range strings.Split(text, "\n") {
		f.Comment(line)
	}
}

func DocCommentf(f *jen.File, format string, args ...any) {
	DocComment(f, fmt.Sprintf(format, args...))
}

// LineComments is DocComment for statement and field lists.
func LineComments(text string) []jen.Code {
	var out []jen.Code
	for _, line := range strings.Split(text, "\n") {
		out = append(out, jen.Comment(line))
	}
	return out
}
