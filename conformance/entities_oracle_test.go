//go:build corpus

package conformance

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/kafkagen/kafkagen/dynamic"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/runtime"
)

// The oracle of the visitor test: it compares the value trees that the
// run-time interpreter (package dynamic, reading the spec files) decodes
// from a message before and after a rewrite, and allows exactly the
// rewrite's changes. It reads entity types and broker addresses from the
// specs itself, sharing no code with the generator's visitors.

// rewrite is one edit made through a visitor, and what the oracle allows it
// to change.
type rewrite struct {
	name   string             // the entity type, or "endpoints"
	entity runtime.EntityType // EntityUnknown for endpoints
	str    func(string) string
	i32    func(int32) int32
	i64    func(int64) int64
	uuid   func(runtime.UUID) runtime.UUID
}

func prefixRewrite(name string, t runtime.EntityType) rewrite {
	return rewrite{name: name, entity: t, str: func(s string) string { return "tenant1." + s }}
}

// rewrites are the edits tested on every message.
var rewrites = []rewrite{
	prefixRewrite("topicName", runtime.EntityTopicName),
	prefixRewrite("groupId", runtime.EntityGroupID),
	prefixRewrite("transactionalId", runtime.EntityTransactionalID),
	{name: "brokerId", entity: runtime.EntityBrokerID, i32: func(id int32) int32 { return id + 1000 }},
	{name: "producerId", entity: runtime.EntityProducerID, i64: func(id int64) int64 { return id + 1 }},
	{name: "topicId", entity: runtime.EntityTopicID, uuid: func(id runtime.UUID) runtime.UUID { id[0] ^= 0xff; return id }},
	{name: "endpoints"},
}

// endpointHost and endpointPort are the address the endpoints rewrite gives
// the broker with id node.
func endpointHost(node int32) string { return "proxy-" + strconv.Itoa(int(node)) }
func endpointPort(node int32) int32  { return 9000 + node }

// addressFields finds a struct's broker address: the string Host, the int32
// Port and the node id (the int32 field of entity type brokerId, else the
// one named NodeId or BrokerId), as indexes into def.Fields.
func addressFields(def *schema.Struct) (id, host, port int, ok bool) {
	id, host, port = -1, -1, -1
	named := -1
	for i, f := range def.Fields {
		scalar := !f.Type.Array
		switch {
		case scalar && f.Name == "Host" && f.Type.Kind == schema.KindString:
			host = i
		case scalar && f.Name == "Port" && f.Type.Kind == schema.KindInt32:
			port = i
		case scalar && f.Type.Kind == schema.KindInt32 && f.EntityType == "brokerId":
			if id < 0 {
				id = i
			}
		case scalar && f.Type.Kind == schema.KindInt32 && (f.Name == "NodeId" || f.Name == "BrokerId"):
			if named < 0 {
				named = i
			}
		}
	}
	if id < 0 {
		id = named
	}
	return id, host, port, id >= 0 && host >= 0 && port >= 0
}

// namesEntity reports whether f is of the entity type name: the spec's
// entityType, or for "topicId", which the specs never give, kafkagen's rule
// (schema.IsTopicID, pinned by TestTopicIDFieldsPinned).
func namesEntity(f *schema.Field, name string) bool {
	return f.EntityType == name || name == "topicId" && schema.IsTopicID(f)
}

// checkRewrite compares the trees a (before) and b (after) of a message at
// version, and returns the first difference that rw does not allow.
func checkRewrite(a, b *dynamic.Struct, version int16, rw rewrite) error {
	return compareStruct(a, b, version, rw, "")
}

func compareStruct(a, b *dynamic.Struct, version int16, rw rewrite, path string) error {
	if !equalTags(a.Unknown, b.Unknown) {
		return fmt.Errorf("%s: unknown tags differ", path)
	}
	address := map[int]bool{}
	if id, host, port, ok := addressFields(a.Def); ok && rw.name == "endpoints" {
		fs := a.Def.Fields
		if fs[id].Versions.Contains(version) && fs[host].Versions.Contains(version) && fs[port].Versions.Contains(version) {
			node := int32(a.Fields[id].Int)
			h, p := b.Fields[host], b.Fields[port]
			if h.Null || h.Str != endpointHost(node) || int32(p.Int) != endpointPort(node) {
				return fmt.Errorf("%s: address of node %d is %q:%d after the rewrite", path, node, h.Str, p.Int)
			}
			address[host], address[port] = true, true
		}
	}
	for i, f := range a.Def.Fields {
		if address[i] {
			continue
		}
		at := path + "." + f.Name
		rewritten := f.Versions.Contains(version) && rw.entity != runtime.EntityUnknown && namesEntity(f, rw.name)
		if err := compareValue(f, a.Fields[i], b.Fields[i], version, rw, rewritten, at); err != nil {
			return err
		}
	}
	return nil
}

// compareValue compares one field's values; where rewritten, b must be rw
// applied to a, element by element.
func compareValue(f *schema.Field, a, b dynamic.Value, version int16, rw rewrite, rewritten bool, path string) error {
	if a.Null != b.Null {
		return fmt.Errorf("%s: null %v became %v", path, a.Null, b.Null)
	}
	if f.Type.Array {
		if len(a.Elems) != len(b.Elems) {
			return fmt.Errorf("%s: %d elements became %d", path, len(a.Elems), len(b.Elems))
		}
		for i := range a.Elems {
			if err := compareScalar(f, a.Elems[i], b.Elems[i], version, rw, rewritten, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	return compareScalar(f, a, b, version, rw, rewritten, path)
}

// compareScalar compares one value (an array's element, or the field's).
func compareScalar(f *schema.Field, a, b dynamic.Value, version int16, rw rewrite, rewritten bool, path string) error {
	if a.Null != b.Null {
		return fmt.Errorf("%s: null %v became %v", path, a.Null, b.Null)
	}
	want := a
	switch k := f.Type.Kind; {
	case k == schema.KindStruct:
		if a.Null {
			return nil
		}
		return compareStruct(a.Struct, b.Struct, version, rw, path)
	case rewritten && !a.Null && k == schema.KindString && rw.str != nil:
		want.Str = rw.str(a.Str)
	case rewritten && k == schema.KindInt32 && rw.i32 != nil:
		want.Int = int64(rw.i32(int32(a.Int)))
	case rewritten && k == schema.KindInt64 && rw.i64 != nil:
		want.Int = rw.i64(a.Int)
	case rewritten && k == schema.KindUUID && rw.uuid != nil:
		want.UUID = rw.uuid(a.UUID)
	}
	if want.Str != b.Str || want.Int != b.Int || math.Float64bits(want.Float) != math.Float64bits(b.Float) ||
		!bytes.Equal(want.Bytes, b.Bytes) || want.UUID != b.UUID {
		return fmt.Errorf("%s: want %s, got %s", path, describe(want), describe(b))
	}
	return nil
}

func describe(v dynamic.Value) string {
	return fmt.Sprintf("{str %q int %d float %v bytes %x uuid %x}", v.Str, v.Int, v.Float, v.Bytes, v.UUID)
}

func equalTags(a, b runtime.Tags) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Tag != b[i].Tag || !bytes.Equal(a[i].Data, b[i].Data) {
			return false
		}
	}
	return true
}
