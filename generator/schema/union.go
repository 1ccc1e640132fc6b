package schema

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
)

// Union merges the spec folders of several Kafka releases into one list of
// specs holding, for every message, the versions of all of them: a broker
// or proxy then speaks Kafka 0.8's Produce v0 and Kafka 4.1's Produce v13
// with one type. Kafka keeps a version's bytes the same in every release
// that has it (docs/protocol.md, "One package from several releases"), so
// where two folders share a version of a message they must agree on its
// fields there: presence, type, nullability, tags, flexibility. A
// disagreement is a Diagnostic naming both files, the field and the
// version. Fields that only removed versions had come back from the folder
// that has those versions; documentation comes from the newest folder that
// has a field. Each folder must have loaded and passed CheckPackage.
func Union(folders ...[]*Spec) ([]*Spec, error) {
	byName := map[string][]*Spec{}
	var names []string
	unstable := map[*Spec]bool{}
	for _, folder := range folders {
		// A request's latestVersionUnstable covers its response too.
		keys := map[int16]bool{}
		for _, s := range folder {
			if s.Type == TypeRequest && s.LatestVersionUnstable {
				keys[s.APIKey] = true
			}
		}
		for _, s := range folder {
			if (s.Type == TypeRequest || s.Type == TypeResponse) && keys[s.APIKey] {
				unstable[s] = true
			}
		}
		for _, s := range folder {
			id := unionKey(s)
			if _, seen := byName[id]; !seen {
				names = append(names, id)
			}
			byName[id] = append(byName[id], s)
		}
	}
	sort.Strings(names)
	var out []*Spec
	var diags Diagnostics
	for _, name := range names {
		s, ds := unionSpec(byName[name], unstable)
		diags = append(diags, ds...)
		if s != nil {
			out = append(out, s)
		}
	}
	if len(diags) == 0 {
		diags = CheckPackage(out)
	}
	if len(diags) > 0 {
		diags.Sort()
		return nil, diags
	}
	return out, nil
}

// unionKey says which specs of several folders are one message: an API's
// request or response, a metadata or coordinator record, by type and key
// (Kafka renames APIs: ListClientMetricsResources became
// ListConfigResources in 4.1, the newest name wins); anything else by
// name.
func unionKey(s *Spec) string {
	if s.HasAPIKey && s.Type != TypeData && s.Type != TypeHeader {
		return fmt.Sprintf("%s/%d", s.Type, s.APIKey)
	}
	return "name/" + s.Name
}

// vmask is a set of versions; Kafka's versions stay far below 64.
type vmask uint64

const maskVersions = 64

func maskOf(v Versions) vmask {
	if v.Empty() {
		return 0
	}
	lo, hi := int(v.Lo), int(v.Hi)
	if hi >= maskVersions {
		hi = maskVersions - 1
	}
	if lo > hi {
		return 0
	}
	return vmask((uint64(1)<<(hi-lo+1))-1) << lo
}

func (m vmask) has(v int) bool { return m&(1<<v) != 0 }
func (m vmask) lo() int        { return bits.TrailingZeros64(uint64(m)) }
func (m vmask) hi() int        { return 63 - bits.LeadingZeros64(uint64(m)) }

// contiguous reports whether m is one range without holes.
func (m vmask) contiguous() bool {
	return m == 0 || m == maskOf(Versions{int16(m.lo()), int16(m.hi())})
}

// rangeOf turns a contiguous set into a range, open-ended when open and
// the set reaches top (the highest version the union has there).
func (m vmask) rangeOf(open bool, top int) Versions {
	if m == 0 {
		return None
	}
	v := Versions{int16(m.lo()), int16(m.hi())}
	if open && m.hi() == top {
		v.Hi = NoMax
	}
	return v
}

// uniter merges one message's specs; diagnostics go to diags.
type uniter struct {
	specs []*Spec // the folders' specs of the message, removed APIs left out
	// own is, per spec, the versions it speaks for: its valid versions less
	// an unstable latest version that another folder also has.
	own   []vmask
	diags Diagnostics
	// common holds the merged common structs by name.
	common map[string]*Struct
}

func (u *uniter) errorf(s *Spec, p Pos, subject, format string, args ...any) {
	line, col := s.Position(p)
	u.diags = append(u.diags, Diagnostic{File: s.File, Line: line, Col: col, Subject: subject, Text: fmt.Sprintf(format, args...)})
}

// where names a spec file and position for a diagnostic about another.
func where(s *Spec, p Pos) string {
	line, col := s.Position(p)
	return fmt.Sprintf("%s:%d:%d", s.File, line, col)
}

func unionSpec(all []*Spec, unstable map[*Spec]bool) (*Spec, Diagnostics) {
	var live []*Spec
	for _, s := range all {
		if !s.Removed() {
			live = append(live, s)
		}
	}
	switch {
	case len(live) == 0:
		return all[len(all)-1], nil // removed everywhere: the entry drops it
	case len(live) == 1:
		return live[0], nil
	}
	// The newest folder (the highest version, then the last given) owns
	// the documentation.
	sort.SliceStable(live, func(i, j int) bool { return live[i].ValidVersions.Hi < live[j].ValidVersions.Hi })
	u := &uniter{specs: live, common: map[string]*Struct{}}
	// An unstable latest version (latestVersionUnstable: "may change")
	// yields to another folder that has the same version: KIP-932's
	// early-access versions changed in place before they became stable.
	for _, s := range live {
		own := maskOf(s.ValidVersions)
		if unstable[s] {
			top := vmask(1) << s.ValidVersions.Hi
			for _, t := range live {
				if t != s && maskOf(t.ValidVersions)&top != 0 {
					own &^= top
				}
			}
		}
		u.own = append(u.own, own)
	}
	newest := live[len(live)-1]
	for _, s := range live[:len(live)-1] {
		if s.Type != newest.Type || s.HasAPIKey != newest.HasAPIKey || s.APIKey != newest.APIKey {
			u.errorf(newest, newest.Pos, newest.Name, "%s is a %s with apiKey %d here but a %s with apiKey %d in %s", newest.Name, newest.Type, newest.APIKey, s.Type, s.APIKey, where(s, s.Pos))
			return nil, u.diags
		}
		if s.ValidVersions.Hi >= maskVersions || newest.ValidVersions.Hi >= maskVersions {
			u.errorf(newest, newest.Pos, newest.Name, "versions above %d cannot be merged", maskVersions-1)
			return nil, u.diags
		}
	}
	merged := *newest
	merged.Structs = nil
	valid := u.unionVersions()
	if len(u.diags) > 0 {
		return nil, u.diags
	}
	merged.ValidVersions = valid
	merged.FlexibleVersions = u.unionFlexible(valid)
	merged.DeprecatedVersions = None
	for _, s := range live {
		merged.DeprecatedVersions = merged.DeprecatedVersions.Hull(s.DeprecatedVersions)
	}
	// Common structs first, as the loader registers them.
	for _, c := range newest.CommonStructs {
		u.common[c.Name] = nil
	}
	var commons []*Struct
	for _, s := range live {
		for _, c := range s.CommonStructs {
			if _, done := u.common[c.Name]; done && u.common[c.Name] != nil {
				continue
			}
			insts := make([]*Struct, len(live))
			for i, t := range live {
				insts[i] = findCommon(t, c.Name)
			}
			st := u.mergeStruct(insts, merged.Name+"."+c.Name, nil)
			u.common[c.Name] = st
			commons = append(commons, st)
		}
	}
	roots := make([]*Struct, len(live))
	for i, s := range live {
		roots[i] = s.Root
	}
	merged.Root = u.mergeStruct(roots, merged.Name, nil)
	merged.Root.Versions = valid
	merged.CommonStructs = commons
	if len(u.diags) > 0 {
		return nil, u.diags
	}
	merged.relink()
	merged.settle()
	return &merged, nil
}

func findCommon(s *Spec, name string) *Struct {
	for _, c := range s.CommonStructs {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func (u *uniter) ownerOf(s *Spec) vmask {
	for i, t := range u.specs {
		if t == s {
			return u.own[i]
		}
	}
	return 0
}

// unionVersions is the union of the valid versions, which must leave no
// gap (no release ever removed a middle version).
func (u *uniter) unionVersions() Versions {
	var all vmask
	for _, s := range u.specs {
		all |= maskOf(s.ValidVersions)
	}
	if !all.contiguous() {
		newest := u.specs[len(u.specs)-1]
		var parts []string
		for _, s := range u.specs {
			parts = append(parts, fmt.Sprintf("%s in %s", s.ValidVersions, s.File))
		}
		u.errorf(newest, newest.Pos, newest.Name, "the folders' valid versions leave a gap: %s", strings.Join(parts, ", "))
		return None
	}
	return all.rangeOf(false, 0)
}

// unionFlexible is the flexible versions of the union: the folders must
// agree at the versions they share, and the result must be open-ended.
func (u *uniter) unionFlexible(valid Versions) Versions {
	var flex vmask
	for v := int(valid.Lo); v <= int(valid.Hi); v++ {
		var first *Spec
		for _, s := range u.specs {
			if !u.ownerOf(s).has(v) {
				continue
			}
			if first == nil {
				first = s
				if s.FlexibleVersions.Contains(int16(v)) {
					flex |= 1 << v
				}
			} else if s.FlexibleVersions.Contains(int16(v)) != first.FlexibleVersions.Contains(int16(v)) {
				u.errorf(s, s.Pos, s.Name, "version %d is flexible in one folder and not in the other (flexibleVersions %s here, %s in %s)", v, s.FlexibleVersions, first.FlexibleVersions, where(first, first.Pos))
			}
		}
	}
	if flex == 0 {
		return None
	}
	if flex|maskOf(Versions{int16(flex.lo()), valid.Hi}) != flex {
		newest := u.specs[len(u.specs)-1]
		u.errorf(newest, newest.Pos, newest.Name, "the flexible versions of the folders do not make one open-ended range in %s", valid)
	}
	return Versions{int16(flex.lo()), NoMax}
}

// mergeStruct merges one struct's instances, one per folder (nil where the
// folder lacks it), field by field.
func (u *uniter) mergeStruct(insts []*Struct, subject string, parent *Field) *Struct {
	newest := lastNonNil(insts)
	ns := u.specs[newest]
	base := insts[newest]
	st := &Struct{Name: base.Name, Pos: base.Pos, Versions: base.Versions, Common: base.Common, Parent: parent}
	for _, in := range insts {
		if in != nil && base.Common {
			st.Versions = st.Versions.Hull(in.Versions)
		}
	}
	names := u.fieldAliases(insts, newest)
	order, ok := mergeOrder(insts, names, newest)
	if !ok {
		u.errorf(ns, base.Pos, subject, "the folders order the fields of %s differently (%s here)", base.Name, strings.Join(fieldNames(base), ", "))
		return st
	}
	var ctx vmask
	for i, in := range insts {
		if in != nil {
			ctx |= maskOf(in.Used) & u.own[i]
		}
	}
	for _, name := range order {
		fs := make([]*Field, len(insts))
		for i, in := range insts {
			if in == nil {
				continue
			}
			for _, f := range in.Fields {
				if names[i][f] == name {
					fs[i] = f
				}
			}
		}
		if f := u.mergeField(fs, insts, ctx, subject+"."+name); f != nil {
			f.Owner = st
			st.Fields = append(st.Fields, f)
		}
	}
	return st
}

func lastNonNil[T any](xs []*T) int {
	for i := len(xs) - 1; i >= 0; i-- {
		if xs[i] != nil {
			return i
		}
	}
	return -1
}

// fieldAliases names every field of every instance as the merged struct
// will: its own name, or the name of the newest instance's field that it
// was renamed to. Kafka renames fields in place (VoteRequest's
// CandidateEpoch became ReplicaEpoch in 4.0); a renamed field is the one of
// the same type at the same place, present in a version both folders share.
func (u *uniter) fieldAliases(insts []*Struct, newest int) []map[*Field]string {
	names := make([]map[*Field]string, len(insts))
	base := insts[newest]
	for i, in := range insts {
		if in == nil {
			continue
		}
		names[i] = map[*Field]string{}
		for k, f := range in.Fields {
			names[i][f] = f.Name
			if i == newest || fieldIndex(base, f.Name) >= 0 {
				continue
			}
			// The newest field after the one that precedes f here.
			at := 0
			if k > 0 {
				prev := names[i][in.Fields[k-1]]
				if at = fieldIndex(base, prev) + 1; at == 0 {
					continue
				}
			}
			if at >= len(base.Fields) {
				continue
			}
			g := base.Fields[at]
			shared := maskOf(in.Used) & u.own[i] & maskOf(base.Used) & u.own[newest]
			if fieldIndex(in, g.Name) < 0 && sameShape(f.Type, g.Type) && shared&maskOf(f.Versions)&maskOf(g.Versions) != 0 {
				names[i][f] = g.Name
			}
		}
	}
	return names
}

func fieldIndex(st *Struct, name string) int {
	for i, f := range st.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

func fieldNames(st *Struct) []string {
	names := make([]string, len(st.Fields))
	for i, f := range st.Fields {
		names[i] = f.Name
	}
	return names
}

// mergeOrder is the newest instance's field order with the fields only
// older instances have inserted after the field that precedes them there.
// ok is false when two instances order shared fields differently.
func mergeOrder(insts []*Struct, names []map[*Field]string, newest int) (order []string, ok bool) {
	order = fieldNames(insts[newest])
	for i := newest - 1; i >= 0; i-- {
		in := insts[i]
		if in == nil {
			continue
		}
		at := 0 // insertion point: after the last shared field seen
		for _, f := range in.Fields {
			name := names[i][f]
			if j := indexOf(order, name); j >= 0 {
				at = j + 1
				continue
			}
			order = append(order[:at], append([]string{name}, order[at:]...)...)
			at++
		}
	}
	for i, in := range insts {
		if in == nil {
			continue
		}
		last := -1
		for _, f := range in.Fields {
			j := indexOf(order, names[i][f])
			if j < last {
				return nil, false
			}
			last = j
		}
	}
	return order, true
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// mergeField merges one field's instances (nil where a folder lacks it);
// ctx is the versions in which the merged struct is used.
func (u *uniter) mergeField(fs []*Field, insts []*Struct, ctx vmask, subject string) *Field {
	newest := lastNonNil(fs)
	base, bs := fs[newest], u.specs[newest]
	// Per folder: where the struct is used, and there where the field is
	// present, nullable and tagged.
	n := len(fs)
	used, present, nullable, tagged := make([]vmask, n), make([]vmask, n), make([]vmask, n), make([]vmask, n)
	var open, nullOpen, tagOpen bool
	for i, f := range fs {
		if insts[i] != nil {
			used[i] = maskOf(insts[i].Used) & u.own[i]
		}
		if f == nil {
			continue
		}
		if !sameShape(f.Type, base.Type) {
			u.errorf(bs, base.Pos, subject, "type %s here but %s in %s", base.Type.Raw, f.Type.Raw, where(u.specs[i], f.Pos))
			return nil
		}
		present[i] = used[i] & maskOf(f.Versions)
		nullable[i] = present[i] & maskOf(f.NullableVersions)
		if f.HasTag {
			tagged[i] = present[i] & maskOf(f.TaggedVersions)
		}
		open = open || f.Versions.Open()
		nullOpen = nullOpen || f.NullableVersions.Open()
		tagOpen = tagOpen || f.TaggedVersions.Open()
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			shared := used[i] & used[j]
			u.agree(fs, i, j, shared, present, subject, "present")
			both := shared & present[i] & present[j]
			u.agree(fs, i, j, both, nullable, subject, "nullable")
			u.agree(fs, i, j, both, tagged, subject, "tagged")
			if tags := both & tagged[i] & tagged[j]; tags != 0 && fs[i].Tag != fs[j].Tag {
				u.errorf(u.specs[j], fs[j].Pos, subject, "tag %d here but %d in %s at version %d", fs[j].Tag, fs[i].Tag, where(u.specs[i], fs[i].Pos), tags.lo())
			}
			if tags := both & tagged[i] & tagged[j]; tags != 0 && fs[i].DefaultValue != fs[j].DefaultValue {
				u.errorf(u.specs[j], fs[j].Pos, subject, "default %q here but %q in %s, at tagged version %d", fs[j].Default, fs[i].Default, where(u.specs[i], fs[i].Pos), tags.lo())
			}
		}
	}
	var all, nulls, tags vmask
	for i := range fs {
		all, nulls, tags = all|present[i], nulls|nullable[i], tags|tagged[i]
	}
	if all == 0 && newest < len(u.specs)-1 {
		// Only in versions an older folder gave up (an unstable version
		// that a newer folder redefined): not part of the union.
		return nil
	}
	f := *base
	f.Struct, f.Owner = nil, nil
	if all != 0 {
		if !all.contiguous() || !nulls.contiguous() || !tags.contiguous() {
			u.errorf(bs, base.Pos, subject, "the folders together give the field versions %s, nullable %s, tagged %s: not one range each", maskString(all), maskString(nulls), maskString(tags))
			return nil
		}
		f.Versions = all.rangeOf(open, ctx.hi())
		f.NullableVersions = nulls.rangeOf(nullOpen, all.hi())
		if f.NullableVersions.Empty() {
			f.NullableVersions = None
		}
		if base.HasTag || tags != 0 {
			f.TaggedVersions = tags.rangeOf(tagOpen, all.hi())
			for _, g := range fs {
				if g != nil && g.HasTag && tags != 0 {
					f.Tag, f.HasTag = g.Tag, true
				}
			}
		}
	}
	f.Present = None
	if base.Type.Kind == KindStruct && base.Struct != nil && !base.Struct.Common {
		nested := make([]*Struct, n)
		for i, g := range fs {
			if g != nil && g.Struct != nil && !g.Struct.Common {
				nested[i] = g.Struct
			}
		}
		f.Struct = u.mergeStruct(nested, subject, &f)
		f.Struct.Versions = f.Versions
	}
	return &f
}

// agree reports the first version of shared at which folders i and j
// disagree on a property of the field.
func (u *uniter) agree(fs []*Field, i, j int, shared vmask, prop []vmask, subject, what string) {
	diff := (prop[i] ^ prop[j]) & shared
	if diff == 0 {
		return
	}
	v := diff.lo()
	yes, no := i, j
	if !prop[i].has(v) {
		yes, no = j, i
	}
	at := func(k int) string {
		if fs[k] == nil {
			return u.specs[k].File + " (no such field)"
		}
		return where(u.specs[k], fs[k].Pos)
	}
	s := u.specs[j]
	p := s.Pos
	if fs[j] != nil {
		p = fs[j].Pos
	}
	u.errorf(s, p, subject, "the folders disagree at version %d: %s in %s, not in %s", v, what, at(yes), at(no))
}

func maskString(m vmask) string {
	var parts []string
	for v := 0; v < maskVersions; v++ {
		if m.has(v) {
			parts = append(parts, fmt.Sprint(v))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// sameShape reports whether two field types encode alike: equal, or
// structs under another name (Kafka renames struct types freely).
func sameShape(a, b Type) bool {
	if a.Kind == KindStruct && b.Kind == KindStruct {
		return a.Array == b.Array
	}
	return a.Array == b.Array && a.Kind == b.Kind
}

// relink binds a merged spec's common struct references, lists its
// structs as the loader does, and computes the versions each struct is
// used in and each field is present in.
func (s *Spec) relink() {
	byName := map[string]*Struct{}
	s.Structs = nil
	for _, c := range s.CommonStructs {
		byName[c.Name] = c
		s.Structs = append(s.Structs, c)
	}
	var walk func(st *Struct)
	walk = func(st *Struct) {
		for _, f := range st.Fields {
			if f.Type.Kind != KindStruct {
				continue
			}
			if f.Struct == nil {
				f.Struct = byName[f.Type.StructName]
				continue
			}
			s.Structs = append(s.Structs, f.Struct)
			walk(f.Struct)
		}
	}
	walk(s.Root)
	for _, c := range s.CommonStructs {
		walk(c)
	}
	for _, st := range append([]*Struct{s.Root}, s.Structs...) {
		st.Used = None
		for _, f := range st.Fields {
			f.Present = None
		}
	}
	s.Root.Used = s.ValidVersions
	propagate(s.Root, s.ValidVersions, 0)
}
