package generator

import (
	"fmt"
	"github.com/dave/jennifer/jen"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// fieldDoc documents a field from its spec: the about text, then its
// versions, nullability, tag and default.
func fieldDoc(fm *fieldModel) string {
	f := fm.f
	var facts []string
	facts = append(facts, "Versions: "+f.Versions.String()+".")
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
	case fm.p.Default.Null:
		facts = append(facts, "Default: null.")
	case f.HasDefault && f.Default != "":
		facts = append(facts, fmt.Sprintf("Default: %s.", f.Default))
	}
	if f.Ignorable {
		facts = append(facts, "Ignorable: dropped silently when written at a version without it.")
	}
	about := strings.TrimSpace(f.About)
	head := fm.goName + " is " + lowerFirst(strings.TrimSuffix(about, "."))
	if about == "" {
		head = fm.goName + " is the spec field " + f.Name
	}
	if fm.goName != goName(f.Name) || (about != "" && f.Name != fm.goName) {
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

// structDoc documents a struct type.
func structDoc(sm *structModel) string {
	spec := sm.spec
	if sm.top {
		var kind string
		switch spec.Type {
		case schema.TypeRequest, schema.TypeResponse:
			kind = fmt.Sprintf("the Kafka %s %s (API key %d)", spec.Name, spec.Type, spec.APIKey)
		case schema.TypeMetadata:
			kind = fmt.Sprintf("the metadata record %s (record type %d)", spec.Name, spec.APIKey)
		case schema.TypeHeader:
			kind = fmt.Sprintf("the %s header", spec.Name)
		default:
			kind = fmt.Sprintf("the Kafka data structure %s", spec.Name)
		}
		doc := fmt.Sprintf("%s is %s.\nValid versions: %s; flexible versions: %s.", sm.goName, kind, spec.ValidVersions, spec.FlexibleVersions)
		if !spec.DeprecatedVersions.Empty() {
			doc += " Deprecated versions: " + spec.DeprecatedVersions.String() + "."
		}
		if spec.LatestVersionUnstable {
			doc += " The latest version is unstable."
		}
		if vs := sm.p.Within; vs != spec.ValidVersions {
			doc += fmt.Sprintf("\nGenerated versions: %s (kafkagen -min-version); the others are refused\nwith runtime.ErrUnsupportedVersion.", vs)
		}
		return doc
	}
	where := "used by " + spec.Name
	if sm.s.Common {
		where = "a common struct of " + spec.Name
	}
	return fmt.Sprintf("%s is the struct %s, %s (versions %s).", sm.goName, sm.s.Name, where, sm.p.Within)
}

// docComment writes a // comment of one or more lines (jennifer would turn a
// multi-line Comment into a /* */ block).
func docComment(f *jen.File, text string) {
	for _, line := range strings.Split(text, "\n") {
		f.Comment(line)
	}
}

func docCommentf(f *jen.File, format string, args ...any) {
	docComment(f, fmt.Sprintf(format, args...))
}

// lineComments is docComment for statement and field lists.
func lineComments(text string) []jen.Code {
	var out []jen.Code
	for _, line := range strings.Split(text, "\n") {
		out = append(out, jen.Comment(line))
	}
	return out
}
