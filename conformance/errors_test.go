//go:build corpus

package conformance

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// Java's error behaviour (docs/protocol.md, "Java's errors") over the
// whole corpus: every error is tested with errors.Is against the exported
// sentinel, and the *runtime.Error must name the message, the field (a dotted
// path of spec field names with array indexes) and, for reads, the offset.

// errsCounts are the checks made, printed by TestCorpusErrorsSummary.
var errsCounts struct{ write, read, prefixes int }

// errsSite is a field of a spec at any depth: chain holds the enclosing
// struct fields, outermost first, then the field itself.
type errsSite struct {
	spec  *schema.Spec
	pkg   genPackage
	chain []*schema.Field
}

func (s errsSite) field() *schema.Field { return s.chain[len(s.chain)-1] }

func (s errsSite) String() string {
	names := make([]string, len(s.chain))
	for i, f := range s.chain {
		names[i] = f.Name
	}
	return s.spec.Name + "." + strings.Join(names, ".")
}

// reachable lists the valid versions at which every enclosing field of the
// site is present, so that the site's struct is written.
func (s errsSite) reachable() []int16 {
	var out []int16
	for _, v := range wiregen.Versions(s.spec) {
		ok := true
		for _, f := range s.chain[:len(s.chain)-1] {
			ok = ok && f.Versions.Contains(v)
		}
		if ok {
			out = append(out, v)
		}
	}
	return out
}

// errsSites lists every field of every spec, depth first.
func errsSites(specs []*schema.Spec, pkgOf map[*schema.Spec]genPackage) []errsSite {
	var out []errsSite
	var walk func(spec *schema.Spec, st *schema.Struct, chain []*schema.Field)
	walk = func(spec *schema.Spec, st *schema.Struct, chain []*schema.Field) {
		for _, f := range st.Fields {
			c := append(append([]*schema.Field(nil), chain...), f)
			out = append(out, errsSite{spec: spec, pkg: pkgOf[spec], chain: c})
			if f.Type.Kind == schema.KindStruct {
				walk(spec, f.Struct, c)
			}
		}
	}
	for _, spec := range specs {
		walk(spec, spec.Root, nil)
	}
	return out
}

// errsGoField is the Go field of a generated struct for a spec field name:
// the generator applies Go initialisms (TopicId → TopicID) and suffixes
// names reserved by methods with "_", so the match ignores case and "_".
func errsGoField(t *testing.T, holder reflect.Value, name string) reflect.Value {
	t.Helper()
	var found reflect.Value
	typ := holder.Type()
	for i := range typ.NumField() {
		sf := typ.Field(i)
		if sf.IsExported() && sf.Name != "UnknownTags" && strings.EqualFold(strings.TrimSuffix(sf.Name, "_"), name) {
			require.False(t, found.IsValid(), "%s: two Go fields for %s", typ, name)
			found = holder.Field(i)
		}
	}
	require.True(t, found.IsValid(), "%s has no Go field for %s", typ, name)
	return found
}

// errsReset calls Reset on a generated struct (addressable).
func errsReset(v reflect.Value) {
	v.Addr().Interface().(interface{ Reset() }).Reset()
}

// errsScaffold makes a fresh message of the site's spec in which every
// enclosing field of the site holds a value: one element (at its defaults)
// in each struct array, and a struct in each nullable struct. It returns the
// message, the struct holding the site's field and the site's path prefix
// ("Topics[0]." or "").
func errsScaffold(t *testing.T, s errsSite, through int) (runtime.Message, reflect.Value, string) {
	t.Helper()
	msg := s.pkg.newByName(s.spec.Name)
	require.NotNil(t, msg, s.spec.Name)
	holder := reflect.ValueOf(msg).Elem()
	var path strings.Builder
	for _, f := range s.chain[:through] {
		fv := errsGoField(t, holder, f.Name)
		switch fv.Kind() {
		case reflect.Slice:
			el := reflect.New(fv.Type().Elem()).Elem()
			errsReset(el)
			fv.Set(reflect.Append(reflect.MakeSlice(fv.Type(), 0, 1), el))
			holder = fv.Index(0)
			fmt.Fprintf(&path, "%s[0].", f.Name)
		case reflect.Pointer:
			if fv.IsNil() {
				p := reflect.New(fv.Type().Elem())
				errsReset(p.Elem())
				fv.Set(p)
			}
			holder = fv.Elem()
			fmt.Fprintf(&path, "%s.", f.Name)
		case reflect.Struct:
			holder = fv
			fmt.Fprintf(&path, "%s.", f.Name)
		default:
			t.Fatalf("%s: %s is not a struct (%s)", s, f.Name, fv.Type())
		}
	}
	return msg, holder, path.String()
}

var (
	errsNullStringType = reflect.TypeOf(runtime.NullString{})
	errsUUIDType       = reflect.TypeOf(runtime.UUID{})
	errsTagsType       = reflect.TypeOf(runtime.Tags{})
)

// errsSetNonDefault changes field f, holding its default, to another
// value: a number plus one, a flipped bool, a longer string, a valid
// NullString for a null one, a changed uuid, a non-nil slice for a null
// default and one more element otherwise, a struct for a null pointer, and
// an unknown tag in a struct (a struct with unknown tags never equals its
// default).
func errsSetNonDefault(t *testing.T, f *schema.Field, fv reflect.Value) {
	t.Helper()
	switch fv.Kind() {
	case reflect.Bool:
		fv.SetBool(!fv.Bool())
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		fv.SetInt(fv.Int() + 1)
	case reflect.Uint16, reflect.Uint32:
		fv.SetUint(fv.Uint() + 1)
	case reflect.Float64:
		fv.SetFloat(fv.Float() + 1)
	case reflect.String:
		fv.SetString(fv.String() + "x")
	case reflect.Array:
		require.Equal(t, errsUUIDType, fv.Type())
		fv.Index(0).SetUint(fv.Index(0).Uint() ^ 1)
	case reflect.Slice:
		if f.DefaultIsNull() {
			require.True(t, fv.IsNil(), "%s: a null default is a nil slice", f.Name)
			fv.Set(reflect.MakeSlice(fv.Type(), 0, 0))
			return
		}
		require.Zero(t, fv.Len(), "%s: an empty default", f.Name)
		el := reflect.New(fv.Type().Elem()).Elem()
		if el.Kind() == reflect.Struct {
			errsReset(el)
		}
		fv.Set(reflect.Append(fv, el))
	case reflect.Pointer:
		if f.DefaultIsNull() {
			require.True(t, fv.IsNil(), "%s: a null default is a nil pointer", f.Name)
			p := reflect.New(fv.Type().Elem())
			errsReset(p.Elem())
			fv.Set(p)
			return
		}
		require.False(t, fv.IsNil(), "%s: a struct default", f.Name)
		errsSetNonDefault(t, f, fv.Elem())
	case reflect.Struct:
		if fv.Type() == errsNullStringType {
			ns := fv.Interface().(runtime.NullString)
			if ns.Valid {
				ns.Value += "x"
			} else {
				ns = runtime.NewNullString("")
			}
			fv.Set(reflect.ValueOf(ns))
			return
		}
		tags := fv.FieldByName("UnknownTags")
		require.True(t, tags.IsValid(), "%s has no UnknownTags", fv.Type())
		tags.Set(reflect.ValueOf(runtime.Tags{{Tag: 1000, Data: []byte{}}}))
	default:
		t.Fatalf("no non-default value for %s", fv.Type())
	}
}

// errsSetNull sets a nullable field to null.
func errsSetNull(t *testing.T, fv reflect.Value) {
	t.Helper()
	switch {
	case fv.Kind() == reflect.Slice || fv.Kind() == reflect.Pointer:
		fv.Set(reflect.Zero(fv.Type()))
	case fv.Type() == errsNullStringType:
		fv.Set(reflect.ValueOf(runtime.Null))
	default:
		t.Fatalf("%s cannot hold null", fv.Type())
	}
}

// errsEncodeError checks err is the *runtime.Error of a failed encode of
// message at version, wrapping sentinel and naming field.
func errsEncodeError(t *testing.T, err error, sentinel error, message string, version int16, field, where string) {
	t.Helper()
	require.Error(t, err, where)
	require.ErrorIs(t, err, sentinel, where)
	var re *runtime.Error
	require.ErrorAs(t, err, &re, where)
	assert.Equal(t, "encode", re.Op, where)
	assert.Equal(t, message, re.Message, where)
	assert.Equal(t, field, re.Field, "%s: %v", where, err)
	assert.Equal(t, version, re.Version, where)
	assert.Equal(t, -1, re.Offset, where)
	assert.Contains(t, err.Error(), message, where)
	errsCounts.write++
}

// errsDecodeError checks err is the *runtime.Error of a failed decode.
func errsDecodeError(t *testing.T, err error, sentinel error, message string, version int16, field string, offset int, where string) {
	t.Helper()
	require.Error(t, err, where)
	require.ErrorIs(t, err, sentinel, where)
	var re *runtime.Error
	require.ErrorAs(t, err, &re, where)
	assert.Equal(t, "decode", re.Op, where)
	assert.Equal(t, message, re.Message, where)
	assert.Equal(t, field, re.Field, "%s: %v", where, err)
	assert.Equal(t, version, re.Version, where)
	assert.Equal(t, offset, re.Offset, "%s: %v", where, err)
	errsCounts.read++
}

// errsAppend encodes msg after a prefix and checks that a failed AppendTo
// returns dst unchanged.
func errsAppend(t *testing.T, msg runtime.Message, version int16) ([]byte, error) {
	t.Helper()
	dst := []byte("dst")
	out, err := msg.AppendTo(dst, version)
	if err != nil {
		require.Equal(t, "dst", string(out), "AppendTo changed dst on error")
		return nil, err
	}
	require.Equal(t, "dst", string(out[:3]))
	return out[3:], nil
}

// isMain reports a site of Kafka's main sources (not the clients test
// fixtures under src/test).
func isMain(s errsSite) bool {
	return !strings.Contains(filepath.ToSlash(s.spec.File), "/src/test/")
}

// TestCorpusWriteErrorsNonDefault: a field absent from a version that is not
// ignorable and holds a non-default value fails the write with
// ErrNonDefault naming it (Java: "Attempted to write a non-default X at
// version V"); an ignorable one is dropped, giving the bytes of the message
// without it.
func TestCorpusWriteErrorsNonDefault(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	topMain := map[string]bool{} // top-level non-ignorable fields of main specs absent from some version
	refusals, drops, nested, skipped := 0, 0, 0, 0
	for _, s := range errsSites(specs, pkgOf) {
		f := s.field()
		for _, v := range s.reachable() {
			if f.Versions.Contains(v) {
				continue
			}
			msg, holder, prefix := errsScaffold(t, s, len(s.chain)-1)
			base, err := errsAppend(t, msg, v)
			if err != nil {
				// The scaffold itself cannot be written (Java cannot either).
				t.Logf("skip %s v%d: %v", s, v, err)
				skipped++
				continue
			}
			errsSetNonDefault(t, f, errsGoField(t, holder, f.Name))
			out, err := errsAppend(t, msg, v)
			where := fmt.Sprintf("%s v%d", s, v)
			if f.Ignorable {
				require.NoError(t, err, where)
				require.Equal(t, hex.EncodeToString(base), hex.EncodeToString(out), "%s: an ignorable field is dropped", where)
				assert.Equal(t, len(out), msg.Size(v), where)
				drops++
				continue
			}
			errsEncodeError(t, err, runtime.ErrNonDefault, s.spec.Name, v, prefix+f.Name, where)
			assert.Contains(t, err.Error(), fmt.Sprintf("non-default %s at version %d", f.Name, v), where)
			refusals++
			if len(s.chain) > 1 {
				nested++
			} else if isMain(s) {
				topMain[s.String()] = true
			}
		}
	}
	t.Logf("non-default writes: %d refused (%d nested), %d ignorable drops, %d skipped; %d top-level non-ignorable fields of main specs",
		refusals, nested, drops, skipped, len(topMain))
	assert.Len(t, topMain, 113, "docs/protocol.md: 113 top-level non-ignorable main fields are absent from some version")
	assert.Positive(t, nested)
	assert.Positive(t, drops)
	assert.Zero(t, skipped)
}

// TestCorpusWriteErrorsNull: null in a version where the field is not
// nullable (nullableVersions narrower than versions) fails with ErrNull
// naming it; in the nullable versions it is written.
func TestCorpusWriteErrorsNull(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	fields := map[string]bool{}
	refusals, written := 0, 0
	for _, s := range errsSites(specs, pkgOf) {
		f := s.field()
		if !f.Type.CanBeNullable() {
			continue
		}
		var present []int16
		someNullable, someNot := false, false
		for _, v := range s.reachable() {
			if f.Versions.Contains(v) {
				present = append(present, v)
				someNullable = someNullable || f.NullableAt(v)
				someNot = someNot || !f.NullableAt(v)
			}
		}
		if !someNullable || !someNot {
			continue
		}
		fields[s.String()] = true
		for _, v := range present {
			msg, holder, prefix := errsScaffold(t, s, len(s.chain)-1)
			errsSetNull(t, errsGoField(t, holder, f.Name))
			_, err := errsAppend(t, msg, v)
			where := fmt.Sprintf("%s v%d", s, v)
			if f.NullableAt(v) {
				require.NoError(t, err, where)
				written++
				continue
			}
			errsEncodeError(t, err, runtime.ErrNull, s.spec.Name, v, prefix+f.Name, where)
			refusals++
		}
	}
	t.Logf("null writes: %d fields, %d refused, %d written", len(fields), refusals, written)
	// docs/protocol.md, "Versions": 6 main fields, plus the fixtures'.
	for _, name := range []string{
		"MetadataRequest.Topics", "MetadataRequest.Topics.Name", "MetadataResponse.Topics.Name",
		"JoinGroupResponse.ProtocolName", "DeleteTopicsResponse.Responses.Name", "OffsetFetchRequest.Topics",
	} {
		assert.True(t, fields[name], name)
	}
	assert.Positive(t, refusals)
	assert.Positive(t, written)
}

// TestCorpusWriteErrorsTaggedFields: unknown tagged fields in any struct
// at a non-flexible version fail with ErrTaggedFields naming the struct
// ("" for the message itself); at flexible versions they are written.
func TestCorpusWriteErrorsTaggedFields(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	refusals, written := 0, 0
	check := func(s errsSite, through int, versions []int16) {
		for _, v := range versions {
			msg, holder, prefix := errsScaffold(t, s, through)
			tags := holder.FieldByName("UnknownTags")
			if !tags.IsValid() {
				require.False(t, s.spec.FlexibleVersions.Contains(v), "%s v%d: no UnknownTags in a flexible message", s.spec.Name, v)
				continue
			}
			base, err := errsAppend(t, msg, v)
			require.NoError(t, err)
			tags.Set(reflect.ValueOf(runtime.Tags{{Tag: 1000, Data: []byte{9}}}))
			out, err := errsAppend(t, msg, v)
			where := fmt.Sprintf("%s (through %d) v%d", s, through, v)
			if s.spec.FlexibleVersions.Contains(v) {
				require.NoError(t, err, where)
				require.Greater(t, len(out), len(base), where)
				written++
				continue
			}
			errsEncodeError(t, err, runtime.ErrTaggedFields, s.spec.Name, v, strings.TrimSuffix(prefix, "."), where)
			refusals++
		}
	}
	for _, spec := range specs {
		// The message itself, at every version.
		check(errsSite{spec: spec, pkg: pkgOf[spec], chain: []*schema.Field{{Name: spec.Name}}}, 0, wiregen.Versions(spec))
	}
	for _, s := range errsSites(specs, pkgOf) {
		if s.field().Type.Kind != schema.KindStruct {
			continue
		}
		var present []int16
		for _, v := range s.reachable() {
			if s.field().Versions.Contains(v) {
				present = append(present, v)
			}
		}
		check(s, len(s.chain), present)
	}
	t.Logf("unknown tags: %d refused, %d written", refusals, written)
	assert.Positive(t, refusals)
	assert.Positive(t, written)
}

// TestCorpusWriteErrorsStringTooLong: every string field (and string array
// element), at its first and last version, fails with ErrStringTooLong
// naming the field when it holds 0x8000 bytes, and is written with 0x7fff.
func TestCorpusWriteErrorsStringTooLong(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	long, limit := strings.Repeat("é", 0x4000), strings.Repeat("x", 0x7fff)
	refusals, nested := 0, 0
	for _, s := range errsSites(specs, pkgOf) {
		f := s.field()
		if f.Type.Kind != schema.KindString {
			continue
		}
		var present []int16
		for _, v := range s.reachable() {
			if f.Versions.Contains(v) {
				present = append(present, v)
			}
		}
		if len(present) == 0 {
			continue
		}
		versions := []int16{present[0]}
		if last := present[len(present)-1]; last != present[0] {
			versions = append(versions, last)
		}
		for _, v := range versions {
			for _, str := range []string{limit, long} {
				msg, holder, prefix := errsScaffold(t, s, len(s.chain)-1)
				fv := errsGoField(t, holder, f.Name)
				switch {
				case fv.Kind() == reflect.String:
					fv.SetString(str)
				case fv.Type() == errsNullStringType:
					fv.Set(reflect.ValueOf(runtime.NewNullString(str)))
				case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.String:
					fv.Set(reflect.ValueOf([]string{"a", str}))
				default:
					t.Fatalf("%s: unexpected Go type %s", s, fv.Type())
				}
				out, err := errsAppend(t, msg, v)
				where := fmt.Sprintf("%s v%d (%d bytes)", s, v, len(str))
				if len(str) <= 0x7fff {
					require.NoError(t, err, where)
					require.Greater(t, len(out), 0x7fff, where)
					continue
				}
				errsEncodeError(t, err, runtime.ErrStringTooLong, s.spec.Name, v, prefix+f.Name, where)
				refusals++
				if len(s.chain) > 1 {
					nested++
				}
			}
		}
	}
	t.Logf("long strings: %d refused (%d nested)", refusals, nested)
	assert.Positive(t, nested)
}

// errsRead is one malformed input.
type errsRead struct {
	name     string
	spec     string
	version  int16
	hex      string
	sentinel error
	field    string
	offset   int
}

// TestCorpusReadErrors decodes malformed inputs: Java's read errors.
func TestCorpusReadErrors(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	byName := map[string]errsSite{}
	for _, s := range specs {
		byName[s.Name] = errsSite{spec: s, pkg: pkgOf[s]}
	}
	newMsg := func(name string) runtime.Message {
		s, ok := byName[name]
		require.True(t, ok, name)
		return s.pkg.newByName(name)
	}
	// A FetchRequest v12 followed by tag 1 (ReplicaState, 15+) in its tag
	// section (V93).
	fetch, err := newMsg("FetchRequest").AppendTo(nil, 12)
	require.NoError(t, err)
	fetchTag1 := hex.EncodeToString(fetch[:len(fetch)-1]) + "01" + "010d" + "00000001" + "0000000000000002" + "00"
	uuid0 := strings.Repeat("00", 16)

	cases := []errsRead{
		// A negative length where the field is not nullable (V98, V99).
		{"null array v0", "MetadataRequest", 0, "ffffffff", runtime.ErrNull, "Topics", 0},
		{"null array, any negative", "MetadataRequest", 0, "80000000", runtime.ErrNull, "Topics", 0},
		{"null string", "FindCoordinatorRequest", 0, "ffff", runtime.ErrNull, "Key", 0},
		{"null compact string", "FindCoordinatorRequest", 3, "00" + "00" + "00", runtime.ErrNull, "Key", 0},
		{"null nested string", "MetadataRequest", 1, "00000001" + "ffff", runtime.ErrNull, "Topics[0].Name", 4},
		{"null nested compact string", "MetadataRequest", 9, "03" + "036162" + "00" + "00", runtime.ErrNull, "Topics[1].Name", 5},
		{"null compact bytes", "SaslAuthenticateRequest", 2, "00" + "00", runtime.ErrNull, "AuthBytes", 0},
		{"null bytes", "SaslAuthenticateRequest", 0, "ffffffff", runtime.ErrNull, "AuthBytes", 0},
		// An array count larger than the remaining bytes, before allocating.
		{"huge array", "MetadataRequest", 0, "7fffffff", runtime.ErrInvalidLength, "Topics", 0},
		{"huge compact array", "MetadataRequest", 9, "feffffff07" + "0000", runtime.ErrInvalidLength, "Topics", 0},
		{"huge nested array", "MetadataResponse", 0, "00000000" + "00000001" + "0000" + "000161" + "7fffffff", runtime.ErrInvalidLength, "Topics[0].Partitions", 13},
		// A string over 0x7fff bytes; the offset is that of its length, as
		// for a null in a non-nullable field.
		{"string too long", "FindCoordinatorRequest", 3, "818002" + strings.Repeat("61", 0x8000), runtime.ErrInvalidLength, "Key", 0},
		{"string too long v0", "FindCoordinatorRequest", 0, "8000" + strings.Repeat("61", 0x8000), runtime.ErrNull, "Key", 0},
		// A known tag outside its versions (V93).
		{"tag 1 at FetchRequest v12", "FetchRequest", 12, fetchTag1, runtime.ErrInvalidTag, "ReplicaState", len(fetch) + 2},
		{"tag 8 at PartitionChangeRecord v0", "PartitionChangeRecord", 0, "00000007" + uuid0 + "01" + "0801" + "00", runtime.ErrInvalidTag, "Directories", 23},
		// A varint with its fifth byte's continuation bit set.
		{"malformed varint length", "FindCoordinatorRequest", 3, "ffffffffffff", runtime.ErrMalformedVarint, "Key", 4},
		{"malformed varint count", "MetadataRequest", 9, "808080808080", runtime.ErrMalformedVarint, "Topics", 4},
		{"malformed varint tag count", "FindCoordinatorRequest", 3, "0261" + "00" + "8181818181", runtime.ErrMalformedVarint, "", 7},
		// Truncated input.
		{"empty", "MetadataRequest", 0, "", runtime.ErrShortBuffer, "Topics", 0},
		{"short string", "FindCoordinatorRequest", 0, "000561", runtime.ErrShortBuffer, "Key", 2},
		{"short int", "FindCoordinatorRequest", 1, "000161" + "", runtime.ErrShortBuffer, "KeyType", 3},
		{"short nested", "MetadataRequest", 1, "00000002" + "000161" + "0001", runtime.ErrShortBuffer, "Topics[1].Name", 9},
		{"short varint", "MetadataRequest", 9, "8080", runtime.ErrShortBuffer, "Topics", 2},
		{"no tag section", "FindCoordinatorRequest", 3, "0261" + "00", runtime.ErrShortBuffer, "", 3},
	}
	for _, c := range cases {
		src, err := hex.DecodeString(c.hex)
		require.NoError(t, err, c.name)
		for _, aliased := range []bool{false, true} {
			msg := newMsg(c.spec)
			var before goruntime.MemStats
			goruntime.ReadMemStats(&before)
			decode := msg.Decode
			if aliased {
				decode = msg.DecodeAliased
			}
			var n int
			require.NotPanics(t, func() { n, err = decode(src, c.version) }, c.name)
			var after goruntime.MemStats
			goruntime.ReadMemStats(&after)
			where := fmt.Sprintf("%s (%s v%d %s, aliased %v)", c.name, c.spec, c.version, c.hex[:min(len(c.hex), 80)], aliased)
			errsDecodeError(t, err, c.sentinel, c.spec, c.version, c.field, c.offset, where)
			assert.Equal(t, c.offset, n, "%s: Decode returns the error offset", where)
			if c.sentinel == runtime.ErrInvalidLength {
				assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "%s: allocated %d bytes", where, after.TotalAlloc-before.TotalAlloc)
			}
		}
	}
}

// TestCorpusUnsupportedVersion: Decode, DecodeAliased and AppendTo fail
// with ErrUnsupportedVersion outside the valid versions, and Size is -1.
func TestCorpusUnsupportedVersion(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	for _, spec := range specs {
		bad := []int16{-1, spec.ValidVersions.Hi + 1, 0x7fff}
		if spec.ValidVersions.Lo > 0 {
			bad = append(bad, spec.ValidVersions.Lo-1)
		}
		for _, v := range bad {
			msg := pkgOf[spec].newByName(spec.Name)
			where := fmt.Sprintf("%s v%d", spec.Name, v)
			assert.Equal(t, -1, msg.Size(v), where)
			_, err := errsAppend(t, msg, v)
			errsEncodeError(t, err, runtime.ErrUnsupportedVersion, spec.Name, v, "", where)
			src := []byte{0, 0, 0, 0}
			for _, decode := range []func([]byte, int16) (int, error){msg.Decode, msg.DecodeAliased} {
				n, err := decode(src, v)
				assert.Zero(t, n, where)
				errsDecodeError(t, err, runtime.ErrUnsupportedVersion, spec.Name, v, "", 0, where)
			}
		}
	}
}

// TestCorpusTruncatedPrefixes decodes every strict prefix of a random
// encoding of every (spec, version) pair: each fails (never succeeds or
// panics) with ErrShortBuffer, ErrInvalidLength or ErrMalformedVarint, an
// error naming the message, the version and an offset within the prefix.
func TestCorpusTruncatedPrefixes(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	pairs, empty := 0, 0
	kinds := map[string]int{}
	for _, spec := range specs {
		for _, v := range wiregen.Versions(spec) {
			pairs++
			rng := rand.New(rand.NewPCG(uint64(v)+7, hash(spec.Name)))
			src := wiregen.Encode(spec, v, rng, wiregen.Options{UnknownTags: true})
			if len(src) == 0 {
				empty++ // no strict prefix (ApiVersionsRequest v0-2)
				continue
			}
			msg := pkgOf[spec].newByName(spec.Name)
			n, err := msg.Decode(src, v)
			require.NoError(t, err, "%s v%d", spec.Name, v)
			require.Equal(t, len(src), n)
			for k := range len(src) {
				prefix := src[:k:k]
				where := fmt.Sprintf("%s v%d prefix %d of %x", spec.Name, v, k, src)
				decode := msg.Decode
				if k%2 == 1 {
					decode = msg.DecodeAliased
				}
				var n int
				require.NotPanics(t, func() { n, err = decode(prefix, v) }, where)
				require.Error(t, err, "%s: a strict prefix decoded", where)
				var re *runtime.Error
				require.ErrorAs(t, err, &re, where)
				switch {
				case errors.Is(err, runtime.ErrShortBuffer):
					kinds["short"]++
				case errors.Is(err, runtime.ErrInvalidLength):
					kinds["length"]++
				case errors.Is(err, runtime.ErrMalformedVarint):
					kinds["varint"]++
				default:
					t.Fatalf("%s: unexpected error %v", where, err)
				}
				require.Equal(t, spec.Name, re.Message, where)
				require.Equal(t, "decode", re.Op, where)
				require.Equal(t, v, re.Version, where)
				require.GreaterOrEqual(t, re.Offset, 0, where)
				require.LessOrEqual(t, re.Offset, k, where)
				require.Equal(t, re.Offset, n, where)
				errsCounts.prefixes++
			}
		}
	}
	t.Logf("prefixes: %d pairs (%d empty encodings), %v", pairs, empty, kinds)
	require.Equal(t, 783, pairs)
	assert.Positive(t, kinds["short"])
	assert.Positive(t, kinds["length"])
}

// TestCorpusErrorsSummary prints the number of error checks; it runs after
// the tests above (tests run in source order).
func TestCorpusErrorsSummary(t *testing.T) {
	t.Logf("errors: write=%d read=%d prefixes=%d", errsCounts.write, errsCounts.read, errsCounts.prefixes)
	fmt.Printf("errors: write=%d read=%d prefixes=%d\n", errsCounts.write, errsCounts.read, errsCounts.prefixes)
	errsCounts.write, errsCounts.read, errsCounts.prefixes = 0, 0, 0
}
