package schema

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

type loader struct {
	rules Rules
	spec  *Spec
	diags Diagnostics
	// objects holds the attributes of the spec's JSON object, of every
	// common struct's and of every field's, by the object's position, for
	// locating attributes in diagnostics.
	objects map[Pos][]attr
	// src is the file's text, as written.
	src []byte
	// resolved is set when resolve bound every struct and computed the
	// Used and Present ranges.
	resolved bool
}

// raw is a value's text as written (comments included), for diagnostics.
func (l *loader) raw(v gjson.Result) string { return string(l.src[v.Index : v.Index+len(v.Raw)]) }

func (l *loader) errorAt(p Pos, subject, format string, args ...any) {
	line, col := l.spec.Position(p)
	l.diags = append(l.diags, Diagnostic{
		File: l.spec.File, Line: line, Col: col, Subject: subject,
		Text: fmt.Sprintf(format, args...),
	})
}

// attrs returns an object's attributes (see objectAttrs for duplicates)
// and keeps them for validation's diagnostics.
func (l *loader) attrs(obj gjson.Result) []attr {
	as := objectAttrs(obj)
	l.objects[posOf(obj)] = as
	return as
}

// text reads a string attribute, coercing numbers and booleans to their text
// as Jackson does. ok is false (after reporting) for other JSON kinds; a JSON
// null gives "", false without a report (Jackson: absent).
func (l *loader) text(a attr, subject string) (string, bool) {
	switch a.value.Type {
	case gjson.String, gjson.Number, gjson.True, gjson.False:
		return scalarText(a.value), true
	case gjson.Null:
		return "", false
	}
	l.errorAt(posOf(a.value), subject, "%q must be a string, found %s", a.key, describe(a.value))
	return "", false
}

func (l *loader) boolean(a attr, subject string) bool {
	switch a.value.Type {
	case gjson.True:
		return true
	case gjson.False, gjson.Null:
		return false
	case gjson.String:
		switch strings.ToLower(a.value.Str) {
		case "true":
			return true
		case "false", "":
			return false
		}
	}
	l.errorAt(posOf(a.value), subject, "%q must be a boolean, found %s", a.key, l.raw(a.value))
	return false
}

// integer reads an int attribute (a JSON number or numeric string) in [lo, hi].
func (l *loader) integer(a attr, subject string, lo, hi int64) (int64, bool) {
	var s string
	switch a.value.Type {
	case gjson.Number:
		s = a.value.Raw
	case gjson.String:
		s = strings.TrimSpace(a.value.Str)
	default:
		l.errorAt(posOf(a.value), subject, "%q must be an integer, found %s", a.key, describe(a.value))
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < lo || n > hi {
		l.errorAt(posOf(a.value), subject, "%q must be an integer in [%d, %d], found %s", a.key, lo, hi, l.raw(a.value))
		return 0, false
	}
	return n, true
}

func (l *loader) versions(a attr, subject string) (Versions, bool) {
	s, ok := l.text(a, subject)
	if !ok {
		return None, false
	}
	v, err := ParseVersions(s)
	if err != nil {
		l.errorAt(posOf(a.value), subject, "%q: %v", a.key, err)
		return None, false
	}
	return v, true
}

// stringList reads an array of strings; a single string counts as a
// one-element array (ACCEPT_SINGLE_VALUE_AS_ARRAY).
func (l *loader) stringList(a attr, subject string, allowed []string) []string {
	items := []gjson.Result{a.value}
	if a.value.IsArray() {
		items = arrayItems(a.value)
	}
	var out []string
	for _, it := range items {
		if it.Type != gjson.String {
			l.errorAt(posOf(it), subject, "%q must hold strings, found %s", a.key, describe(it))
			continue
		}
		if !contains(allowed, it.Str) {
			l.errorAt(posOf(it), subject, "%q: unknown value %q (expected one of %s)", a.key, it.Str, strings.Join(allowed, ", "))
			continue
		}
		out = append(out, it.Str)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var (
	specTypes   = []string{"request", "response", "header", "metadata", "data", "coordinator-key", "coordinator-value"}
	listenerSet = []string{"zkBroker", "broker", "controller"}
	entityTypes = []string{"unknown", "transactionalId", "producerId", "groupId", "topicName", "brokerId"}
)

func (l *loader) message(root gjson.Result) {
	s := l.spec
	s.Pos = posOf(root)
	s.ValidVersions, s.FlexibleVersions, s.DeprecatedVersions = None, None, None
	as := l.attrs(root)
	// The name first, so that every other diagnostic can be attributed.
	for _, a := range as {
		if a.key == "name" {
			s.Name, _ = l.text(a, "")
		}
	}
	subject := s.Name
	var haveValid, haveFlexible, haveType bool
	var fields, commons *attr
	for i := range as {
		a := as[i]
		switch a.key {
		case "name":
		case "type":
			t, ok := l.text(a, subject)
			if !ok {
				continue
			}
			t = strings.TrimSpace(t)
			if !contains(specTypes, t) {
				l.errorAt(posOf(a.value), subject, "unknown type %q (expected one of %s)", t, strings.Join(specTypes, ", "))
				continue
			}
			s.Type, haveType = SpecType(t), true
		case "apiKey":
			if a.value.Type == gjson.Null {
				continue
			}
			if n, ok := l.integer(a, subject, math.MinInt16, math.MaxInt16); ok {
				s.APIKey, s.HasAPIKey = int16(n), true
			}
		case "validVersions":
			s.ValidVersions, haveValid = l.versions(a, subject)
		case "flexibleVersions":
			s.FlexibleVersions, haveFlexible = l.versions(a, subject)
		case "deprecatedVersions":
			s.DeprecatedVersions, _ = l.versions(a, subject)
		case "latestVersionUnstable":
			s.LatestVersionUnstable = l.boolean(a, subject)
		case "listeners":
			s.Listeners = l.stringList(a, subject, listenerSet)
		case "fields":
			fields = &as[i]
		case "commonStructs":
			commons = &as[i]
		default:
			l.errorAt(a.pos, subject, "unknown attribute %q", a.key)
		}
	}
	if s.Name == "" {
		l.errorAt(s.Pos, "", "the spec has no \"name\"")
	}
	if !haveType && !hasKey(as, "type") {
		l.errorAt(s.Pos, subject, "the spec has no \"type\"")
	}
	if !haveValid && !hasKey(as, "validVersions") {
		l.errorAt(s.Pos, subject, "You must specify the version of the %s structure.", s.Name)
	}
	switch {
	case haveValid && s.ValidVersions.Empty():
		// A removed API (Kafka 4.0): the spec is kept empty, whatever it
		// says of flexible versions (docs/protocol.md, "Removed APIs").
		s.FlexibleVersions = None
	case !haveFlexible && !hasKey(as, "flexibleVersions") && !l.rules.FlexibleVersionsOptional:
		l.errorAt(s.Pos, subject, "You must specify a value for flexibleVersions. Please use 0+ for all new messages.")
	}
	s.Root = &Struct{Name: s.Name, Pos: s.Pos, Versions: s.ValidVersions}
	if fields != nil {
		s.Root.Fields = l.fields(*fields, s.Root, subject)
	}
	if commons != nil {
		if !commons.value.IsArray() {
			l.errorAt(posOf(commons.value), subject, "\"commonStructs\" must be an array, found %s", describe(commons.value))
		} else {
			for _, item := range arrayItems(commons.value) {
				if st := l.commonStruct(item, subject); st != nil {
					s.CommonStructs = append(s.CommonStructs, st)
				}
			}
		}
	}
}

// hasKey reports whether the attribute is given. Like Jackson, it treats a
// JSON null as absent.
func hasKey(as []attr, key string) bool {
	a := lookup(as, key)
	return a != nil && a.value.Type != gjson.Null
}

func (l *loader) commonStruct(obj gjson.Result, subject string) *Struct {
	if !obj.IsObject() {
		l.errorAt(posOf(obj), subject, "a common struct must be an object, found %s", describe(obj))
		return nil
	}
	st := &Struct{Pos: posOf(obj), Common: true, Versions: None}
	as := l.attrs(obj)
	for _, a := range as {
		if a.key == "name" {
			st.Name, _ = l.text(a, subject)
		}
	}
	sub := subject + "." + st.Name
	haveVersions := false
	for _, a := range as {
		switch a.key {
		case "name":
		case "versions":
			st.Versions, haveVersions = l.versions(a, sub)
		case "deprecatedVersions":
			l.versions(a, sub)
		case "fields":
			st.Fields = l.fields(a, st, sub)
		default:
			l.errorAt(a.pos, sub, "unknown attribute %q of a common struct", a.key)
		}
	}
	if st.Name == "" {
		l.errorAt(st.Pos, subject, "a common struct has no \"name\"")
	}
	if !haveVersions && !hasKey(as, "versions") {
		l.errorAt(st.Pos, sub, "the common struct has no \"versions\"")
	}
	return st
}

func (l *loader) fields(a attr, owner *Struct, subject string) []*Field {
	if !a.value.IsArray() {
		l.errorAt(posOf(a.value), subject, "\"fields\" must be an array, found %s", describe(a.value))
		return nil
	}
	var out []*Field
	for _, item := range arrayItems(a.value) {
		if f := l.field(item, owner, subject); f != nil {
			out = append(out, f)
		}
	}
	return out
}

func (l *loader) field(obj gjson.Result, owner *Struct, parent string) *Field {
	if !obj.IsObject() {
		l.errorAt(posOf(obj), parent, "a field must be an object, found %s", describe(obj))
		return nil
	}
	f := &Field{Pos: posOf(obj), Owner: owner, Present: None, Versions: None, NullableVersions: None, TaggedVersions: None, FlexibleVersions: None}
	as := l.attrs(obj)
	for _, a := range as {
		if a.key == "name" {
			f.Name, _ = l.text(a, parent)
		}
	}
	subject := parent + "." + f.Name
	haveVersions, haveType := false, false
	var nested *attr
	for i := range as {
		a := as[i]
		switch a.key {
		case "name":
		case "type":
			if t, ok := l.text(a, subject); ok {
				typ, err := ParseType(t)
				if err != nil {
					l.errorAt(posOf(a.value), subject, "%v", err)
					continue
				}
				f.Type, haveType = typ, true
			}
		case "versions":
			f.Versions, haveVersions = l.versions(a, subject)
		case "nullableVersions":
			f.NullableVersions, _ = l.versions(a, subject)
		case "taggedVersions":
			f.TaggedVersions, _ = l.versions(a, subject)
		case "flexibleVersions":
			f.FlexibleVersions, f.HasFlexibleVersions = l.versions(a, subject)
		case "tag":
			if a.value.Type == gjson.Null {
				continue
			}
			if n, ok := l.integer(a, subject, math.MinInt32, math.MaxInt32); ok {
				f.Tag, f.HasTag = int(n), true
			}
		case "about":
			f.About, _ = l.text(a, subject)
		case "default":
			f.Default, f.HasDefault = l.text(a, subject)
		case "ignorable":
			f.Ignorable = l.boolean(a, subject)
		case "mapKey":
			f.MapKey = l.boolean(a, subject)
		case "zeroCopy":
			f.ZeroCopy = l.boolean(a, subject)
		case "entityType":
			if et, ok := l.text(a, subject); ok {
				if !contains(entityTypes, et) {
					l.errorAt(posOf(a.value), subject, "unknown entityType %q (expected one of %s)", et, strings.Join(entityTypes, ", "))
				}
				f.EntityType = et
			}
		case "fields":
			nested = &as[i]
		default:
			l.errorAt(a.pos, subject, "unknown attribute %q of a field", a.key)
		}
	}
	if f.Name == "" {
		l.errorAt(f.Pos, parent, "a field has no \"name\"")
	}
	if !haveType && !hasKey(as, "type") {
		l.errorAt(f.Pos, subject, "the field has no \"type\"")
	}
	if !haveVersions && !hasKey(as, "versions") {
		if !f.TaggedVersions.Empty() {
			f.Versions = f.TaggedVersions
		} else {
			l.errorAt(f.Pos, subject, "You must specify the version of the %s structure.", f.Name)
		}
	}
	if nested != nil {
		if haveType && f.Type.Kind != KindStruct {
			l.errorAt(nested.pos, subject, "Non-array or Struct field %s cannot have fields", f.Name)
		} else if haveType {
			st := &Struct{Name: f.Type.StructName, Pos: f.Pos, Versions: f.Versions, Parent: f}
			st.Fields = l.fields(*nested, st, subject)
			f.Struct = st
		}
	}
	return f
}

// ParseType parses a field type: a primitive, a struct name (starting with an
// upper-case letter), or "[]" followed by either.
func ParseType(raw string) (Type, error) {
	t := Type{Raw: raw}
	s := raw
	if strings.HasPrefix(s, "[]") {
		t.Array = true
		s = s[2:]
		if s == "" {
			return t, fmt.Errorf("Can't parse array type %s. No element type found.", raw)
		}
		if strings.HasPrefix(s, "[]") {
			return t, fmt.Errorf("Can't have an array of arrays. Use an array of structs containing an array instead.")
		}
	}
	if k, ok := kindNames[s]; ok {
		t.Kind = k
		return t, nil
	}
	if s != "" && s[0] >= 'A' && s[0] <= 'Z' {
		t.Kind = KindStruct
		t.StructName = s
		return t, nil
	}
	return t, fmt.Errorf("Can't parse type %s.", raw)
}
