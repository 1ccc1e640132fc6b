package schema

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// LoadFile reads and loads one spec file.
func LoadFile(path string) (*Spec, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Load(path, src)
}

// LoadDir loads every *.json file of dir (not recursive), in name order. It
// reports the problems of all files, not only the first one.
func LoadDir(dir string) ([]*Spec, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var specs []*Spec
	var diags Diagnostics
	for _, path := range paths {
		spec, err := LoadFile(path)
		if ds, ok := err.(Diagnostics); ok {
			diags = append(diags, ds...)
			continue
		}
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	diags = append(diags, CheckPackage(specs)...)
	if len(diags) > 0 {
		return nil, diags
	}
	return specs, nil
}

// Load parses, validates and resolves one spec. Problems are returned as
// Diagnostics, all of them, each with file, line and column.
func Load(file string, src []byte) (*Spec, error) {
	l := &loader{spec: &Spec{File: file, index: newLineIndex(src)}}
	stripped, at, err := stripComments(src)
	if err != nil {
		l.errorAt(Pos(at), "", "%v", err)
		return nil, l.diags
	}
	if serr := checkSyntax(stripped); serr != nil {
		l.errorAt(Pos(serr.offset), "", "invalid JSON: %s", serr.msg)
		return nil, l.diags
	}
	root := gjson.ParseBytes(stripped)
	if !root.IsObject() {
		l.errorAt(Pos(root.Index), "", "a spec must be a JSON object, found %s", kindOf(root))
		return nil, l.diags
	}
	l.src = stripped
	l.message(root)
	if len(l.diags) == 0 {
		l.resolve()
	}
	// Validation also runs after load problems, so that one pass reports
	// them all; it skips what could not be loaded.
	l.validate()
	if len(l.diags) > 0 {
		l.diags.Sort()
		return nil, l.diags
	}
	return l.spec, nil
}

type loader struct {
	spec  *Spec
	diags Diagnostics
	// src is the comment-free source, for locating attributes in diagnostics.
	src []byte
	// resolved is set when resolve bound every struct and computed the
	// Used and Present ranges.
	resolved bool
}

func (l *loader) errorAt(p Pos, subject, format string, args ...any) {
	line, col := l.spec.Position(p)
	l.diags = append(l.diags, Diagnostic{
		File: l.spec.File, Line: line, Col: col, Subject: subject,
		Text: fmt.Sprintf(format, args...),
	})
}

func kindOf(r gjson.Result) string {
	switch r.Type {
	case gjson.Null:
		return "null"
	case gjson.False, gjson.True:
		return "a boolean"
	case gjson.Number:
		return "a number"
	case gjson.String:
		return "a string"
	}
	if r.IsArray() {
		return "an array"
	}
	return "an object"
}

// attrs returns an object's attributes with Jackson's "last duplicate wins",
// in document order of their first appearance.
type attr struct {
	key   string
	pos   Pos // the key's position
	value gjson.Result
}

func attrs(obj gjson.Result) []attr {
	var out []attr
	seen := map[string]int{}
	obj.ForEach(func(k, v gjson.Result) bool {
		a := attr{key: k.String(), pos: Pos(k.Index), value: v}
		if i, ok := seen[a.key]; ok {
			out[i] = a
		} else {
			seen[a.key] = len(out)
			out = append(out, a)
		}
		return true
	})
	return out
}

// text reads a string attribute, coercing numbers and booleans to their text
// as Jackson does. ok is false (after reporting) for other JSON kinds; a JSON
// null gives "", false without a report (Jackson: absent).
func (l *loader) text(a attr, subject string) (string, bool) {
	switch a.value.Type {
	case gjson.String:
		return a.value.Str, true
	case gjson.Number, gjson.True, gjson.False:
		return a.value.Raw, true
	case gjson.Null:
		return "", false
	}
	l.errorAt(Pos(a.value.Index), subject, "%q must be a string, found %s", a.key, kindOf(a.value))
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
	l.errorAt(Pos(a.value.Index), subject, "%q must be a boolean, found %s", a.key, a.value.Raw)
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
		l.errorAt(Pos(a.value.Index), subject, "%q must be an integer, found %s", a.key, kindOf(a.value))
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < lo || n > hi {
		l.errorAt(Pos(a.value.Index), subject, "%q must be an integer in [%d, %d], found %s", a.key, lo, hi, a.value.Raw)
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
		l.errorAt(Pos(a.value.Index), subject, "%q: %v", a.key, err)
		return None, false
	}
	return v, true
}

// stringList reads an array of strings; a single string counts as a
// one-element array (ACCEPT_SINGLE_VALUE_AS_ARRAY).
func (l *loader) stringList(a attr, subject string, allowed []string) []string {
	var items []gjson.Result
	if a.value.IsArray() {
		items = a.value.Array()
	} else {
		items = []gjson.Result{a.value}
	}
	var out []string
	for _, it := range items {
		if it.Type != gjson.String {
			l.errorAt(Pos(it.Index), subject, "%q must hold strings, found %s", a.key, kindOf(it))
			continue
		}
		if !contains(allowed, it.Str) {
			l.errorAt(Pos(it.Index), subject, "%q: unknown value %q (expected one of %s)", a.key, it.Str, strings.Join(allowed, ", "))
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
	specTypes   = []string{"request", "response", "header", "metadata", "data"}
	listenerSet = []string{"zkBroker", "broker", "controller"}
	entityTypes = []string{"unknown", "transactionalId", "producerId", "groupId", "topicName", "brokerId"}
)

func (l *loader) message(root gjson.Result) {
	s := l.spec
	s.Pos = Pos(root.Index)
	s.ValidVersions, s.FlexibleVersions, s.DeprecatedVersions = None, None, None
	as := attrs(root)
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
				l.errorAt(Pos(a.value.Index), subject, "unknown type %q (expected one of %s)", t, strings.Join(specTypes, ", "))
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
	if !haveFlexible && !hasKey(as, "flexibleVersions") {
		l.errorAt(s.Pos, subject, "You must specify a value for flexibleVersions. Please use 0+ for all new messages.")
	}
	s.Root = &Struct{Name: s.Name, Pos: s.Pos, Versions: s.ValidVersions}
	if fields != nil {
		s.Root.Fields = l.fields(*fields, s.Root, subject)
	}
	if commons != nil {
		if !commons.value.IsArray() {
			l.errorAt(Pos(commons.value.Index), subject, "\"commonStructs\" must be an array, found %s", kindOf(commons.value))
		} else {
			for _, c := range commons.value.Array() {
				if st := l.commonStruct(c, subject); st != nil {
					s.CommonStructs = append(s.CommonStructs, st)
				}
			}
		}
	}
}

// hasKey reports whether the attribute is given. Like Jackson, it treats a
// JSON null as absent.
func hasKey(as []attr, key string) bool {
	for _, a := range as {
		if a.key == key && a.value.Type != gjson.Null {
			return true
		}
	}
	return false
}

func (l *loader) commonStruct(obj gjson.Result, subject string) *Struct {
	if !obj.IsObject() {
		l.errorAt(Pos(obj.Index), subject, "a common struct must be an object, found %s", kindOf(obj))
		return nil
	}
	st := &Struct{Pos: Pos(obj.Index), Common: true, Versions: None}
	as := attrs(obj)
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
		l.errorAt(Pos(a.value.Index), subject, "\"fields\" must be an array, found %s", kindOf(a.value))
		return nil
	}
	var out []*Field
	for _, obj := range a.value.Array() {
		if f := l.field(obj, owner, subject); f != nil {
			out = append(out, f)
		}
	}
	return out
}

func (l *loader) field(obj gjson.Result, owner *Struct, parent string) *Field {
	if !obj.IsObject() {
		l.errorAt(Pos(obj.Index), parent, "a field must be an object, found %s", kindOf(obj))
		return nil
	}
	f := &Field{Pos: Pos(obj.Index), Owner: owner, Present: None, Versions: None, NullableVersions: None, TaggedVersions: None, FlexibleVersions: None}
	as := attrs(obj)
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
					l.errorAt(Pos(a.value.Index), subject, "%v", err)
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
					l.errorAt(Pos(a.value.Index), subject, "unknown entityType %q (expected one of %s)", et, strings.Join(entityTypes, ", "))
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
