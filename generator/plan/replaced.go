package plan

import (
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Replacements are the fields that take over the role of a field at the
// versions of its struct that lack it: Before its first version, After its
// last. Nil where the spec has none.
type Replacements struct {
	Before, After *schema.Field
}

// replacementsOf finds f's replacements. The rule (docs/architecture.md,
// "Where each rule lives"): a field of f's struct, else of the struct
// holding it, that is present at the version next to f's versions, is not
// present at all of f's versions, and carries f's role: the same entity
// type (its own or that of one of its fields, as Groups carries a groupId;
// a topic name's role is also a topic id's), else the same kind with a name that ends in f's name or its plural
// (CoordinatorKeys for Key), else a struct holding a field of f's name
// (Groups holds Topics). A role two fields could carry names neither.
func replacementsOf(f *schema.Field) Replacements {
	var r Replacements
	vs := f.Versions
	owner := f.Owner
	if owner == nil {
		return r
	}
	if vs.Lo > max(owner.Versions.Lo, 0) {
		r.Before = findReplacement(f, vs.Lo-1, func(c schema.Versions) bool { return c.Hi < vs.Hi })
	}
	if vs.Hi != schema.NoMax && vs.Hi < owner.Versions.Hi {
		r.After = findReplacement(f, vs.Hi+1, func(c schema.Versions) bool { return c.Lo > vs.Lo })
	}
	return r
}

// findReplacement looks in f's struct, then in its parent's, for the one
// field present at version v, newer or older than f as apart says, that
// carries f's role.
func findReplacement(f *schema.Field, v int16, apart func(schema.Versions) bool) *schema.Field {
	structs := []*schema.Struct{f.Owner}
	if p := f.Owner.Parent; p != nil && p.Owner != nil {
		structs = append(structs, p.Owner)
	}
	for _, st := range structs {
		var byEntity, byName, byMember []*schema.Field
		for _, c := range st.Fields {
			if c == f || !c.Versions.Contains(v) || !apart(c.Versions) {
				continue
			}
			if f.EntityType != "" && carriesEntity(c, f.EntityType) || topicNameAndID(f, c) {
				byEntity = append(byEntity, c)
			}
			if c.Type.Kind == f.Type.Kind && namedAfter(c.Name, f.Name) {
				byName = append(byName, c)
			}
			if holdsField(c, f.Name) {
				byMember = append(byMember, c)
			}
		}
		for _, found := range [][]*schema.Field{byEntity, byName, byMember} {
			switch len(found) {
			case 0:
				continue
			case 1:
				return found[0]
			}
			return nil // ambiguous: naming one would mislead
		}
	}
	return nil
}

// topicNameAndID reports whether one of f and c is a topic name and the
// other a topic id: the role KIP-516 moved from names to ids (Fetch v13,
// Produce v13, OffsetCommit and OffsetFetch v10), where the spec marks only
// the name with an entity type (schema.IsTopicID).
func topicNameAndID(f, c *schema.Field) bool {
	const name = "topicName"
	return f.EntityType == name && schema.IsTopicID(c) || schema.IsTopicID(f) && c.EntityType == name
}

// carriesEntity reports whether c holds values of entity type e: itself,
// or as a field of its struct.
func carriesEntity(c *schema.Field, e string) bool {
	return c.EntityType == e || structHas(c, func(g *schema.Field) bool { return g.EntityType == e })
}

// holdsField reports whether c is a struct with a field named name, as
// OffsetFetchRequest's Groups holds the Topics the request had before.
func holdsField(c *schema.Field, name string) bool {
	return structHas(c, func(g *schema.Field) bool { return g.Name == name })
}

// structHas reports whether c is a struct (or struct array) with a field
// for which is holds.
func structHas(c *schema.Field, is func(*schema.Field) bool) bool {
	if c.Type.Kind != schema.KindStruct || c.Struct == nil {
		return false
	}
	for _, g := range c.Struct.Fields {
		if is(g) {
			return true
		}
	}
	return false
}

// namedAfter reports whether name ends in old or in old's plural.
func namedAfter(name, old string) bool {
	n, o := strings.ToLower(name), strings.ToLower(old)
	return n != o && (strings.HasSuffix(n, o) || strings.HasSuffix(n, o+"s"))
}
