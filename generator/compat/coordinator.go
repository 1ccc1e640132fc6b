package compat

import (
	"github.com/kafkagen/kafkagen/generator/schema"
)

// Kafka 4.1 retyped the coordinators' records, which 3.9 and 4.0 typed
// "data", as coordinator-key and coordinator-value specs paired by apiKey,
// the record type (docs/protocol.md, "What Kafka 4.0, 4.1 and 4.2 added").
// The bytes in the coordinators' logs do not change: a record's key starts
// with an int16 that 4.0 read as the key's version, with one key spec per
// record type whose validVersions was that type (ConsumerGroupMetadataKey
// "3"), and that 4.1 reads as the record type, the key's fields then
// written at version 0. Values keep their versions. So a retyped key's
// version k is compared with the new key's version 0, where k is its new
// apiKey; a retyped value is compared as it is.

func isCoordinatorRecord(s *schema.Spec) bool {
	return s.Type == schema.TypeCoordinatorKey || s.Type == schema.TypeCoordinatorValue
}

// becameCoordinatorRecord reports whether the new spec is the old data
// spec retyped as a coordinator record.
func becameCoordinatorRecord(o, n *schema.Spec) bool {
	return o.Type == schema.TypeData && !o.HasAPIKey && isCoordinatorRecord(n) && n.HasAPIKey
}

// recordShift is how far the old spec's versions move down to meet the
// new ones: the record type for a key, nothing for a value.
func recordShift(n *schema.Spec) int16 {
	if n.Type == schema.TypeCoordinatorKey {
		return n.APIKey
	}
	return 0
}

// asCoordinatorRecord notes the retyping and returns the old spec as the
// new one counts versions, or false (with a violation) when the old key
// never had the version the new key's record type names.
func asCoordinatorRecord(o, n *schema.Spec) (*schema.Spec, []Finding, bool) {
	c := newChecker(o, n, schema.None, Violation)
	k := recordShift(n)
	if n.Type == schema.TypeCoordinatorValue {
		c.note(n.Pos, n.Name, RuleCoordinator, "type changed from data to coordinator-value of record type %d: the value's bytes do not change", n.APIKey)
		return o, c.findings, true
	}
	if !o.ValidVersions.Contains(k) {
		c.violation(n.Pos, n.Name, RuleCoordinator, "type changed from data to coordinator-key of record type %d, but the old key's validVersions %s do not hold %d: old readers take the record for another type",
			k, o.ValidVersions, k)
		return nil, c.findings, false
	}
	c.note(n.Pos, n.Name, RuleCoordinator, "type changed from data to coordinator-key of record type %d: the old key's version %d is that record type, compared with the new key's version 0", k, k)
	if others := where(o.ValidVersions, []schema.Versions{{Lo: k, Hi: k}}, func(v int16) bool { return v != k }); !others.Empty() {
		c.note(n.Pos, n.Name, RuleCoordinator, "other record types' keys, which other coordinator-key specs carry now: %s of the old key", others.versionsWord())
	}
	return shiftSpec(o, k), c.findings, true
}

// shiftVersions moves v down by k, dropping what falls below 0.
func shiftVersions(v schema.Versions, k int16) schema.Versions {
	if v.Empty() || k == 0 {
		return v
	}
	hi := v.Hi
	if hi != schema.NoMax {
		hi -= k
	}
	if hi < 0 {
		return schema.None
	}
	return schema.Versions{Lo: max(v.Lo-k, 0), Hi: hi}
}

// shiftSpec copies s with every version moved down by k and the valid
// versions cut to the one that was k.
func shiftSpec(s *schema.Spec, k int16) *schema.Spec {
	out := *s
	out.ValidVersions = shiftVersions(s.ValidVersions.Intersect(schema.Versions{Lo: k, Hi: k}), k)
	out.FlexibleVersions = shiftVersions(s.FlexibleVersions, k)
	out.DeprecatedVersions = shiftVersions(s.DeprecatedVersions, k)
	out.LatestVersionUnstable = false
	copies := map[*schema.Struct]*schema.Struct{}
	var copyStruct func(st *schema.Struct) *schema.Struct
	copyStruct = func(st *schema.Struct) *schema.Struct {
		if st == nil {
			return nil
		}
		if c, ok := copies[st]; ok {
			return c
		}
		c := *st
		copies[st] = &c
		c.Versions, c.Used = shiftVersions(st.Versions, k), shiftVersions(st.Used, k)
		c.Fields = make([]*schema.Field, len(st.Fields))
		for i, f := range st.Fields {
			g := *f
			g.Versions, g.Present = shiftVersions(f.Versions, k), shiftVersions(f.Present, k)
			g.NullableVersions, g.TaggedVersions = shiftVersions(f.NullableVersions, k), shiftVersions(f.TaggedVersions, k)
			g.FlexibleVersions = shiftVersions(f.FlexibleVersions, k)
			g.Owner = &c
			g.Struct = copyStruct(f.Struct)
			if g.Struct != nil && g.Struct.Parent == f {
				g.Struct.Parent = &g
			}
			c.Fields[i] = &g
		}
		return &c
	}
	out.Root = copyStruct(s.Root)
	out.Root.Versions = out.ValidVersions
	out.CommonStructs = make([]*schema.Struct, len(s.CommonStructs))
	for i, st := range s.CommonStructs {
		out.CommonStructs[i] = copyStruct(st)
	}
	out.Structs = make([]*schema.Struct, len(s.Structs))
	for i, st := range s.Structs {
		out.Structs[i] = copyStruct(st)
	}
	return &out
}
