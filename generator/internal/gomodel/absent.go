package gomodel

import (
	"fmt"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// versionsNote is a field's versions followed by the fields that replace
// it outside them (plan.Replacements): "0-7; from v8 see Groups".
func (p *Message) versionsNote(pf *plan.Field) string {
	vs := pf.Schema.Versions
	note := vs.String()
	if r := pf.Replaced.Before; r != nil {
		note += fmt.Sprintf("; before v%d see %s", vs.Lo, p.replacementName(pf, r))
	}
	if r := pf.Replaced.After; r != nil {
		note += fmt.Sprintf("; from v%d see %s", vs.Hi+1, p.replacementName(pf, r))
	}
	return note
}

// AbsentFix is what the encode error of a non-default value in a field
// absent at the version adds to Java's text: the Go field, its versions and
// its replacements ("GroupID has versions 0-7; from v8 see Groups"), and
// the default when a struct literal's zero value is not it ("MaxNumOffsets
// has versions 0; New and Make set its default, 1"), the usual cause.
func (p *Message) AbsentFix(pf *plan.Field) string {
	fix := p.FieldName(pf) + " has versions " + p.versionsNote(pf)
	if d := literalDefault(pf.Schema); d != "" {
		fix += "; New and Make set its default, " + d
	}
	return fix
}

// replacementName is the Go name of r, prefixed with its struct's type when
// it is a field of the parent struct.
func (p *Message) replacementName(pf *plan.Field, r *schema.Field) string {
	name := p.Names.FieldName(r)
	if r.Owner != pf.Schema.Owner {
		return p.Names.TypeName(r.Owner) + "." + name
	}
	return name
}
