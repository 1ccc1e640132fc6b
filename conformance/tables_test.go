//go:build corpus

package conformance

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/conformance/gen/clientsprinted"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// TestTablesMatchPrinted compares the clients package, whose APIs off the
// data path encode and decode through tables (runtime/codec's interpreters),
// with clientsprinted, the same specs generated with -printed, as the
// oracle: for every (spec, version) pair, random encodings decode in both to
// messages that encode to the same bytes; cut short, they fail in both with
// the same error text and offset; and every field of the decoded message,
// set in turn to values a version may refuse (null, a string over 32767
// bytes, a value other than the default where the version lacks the field,
// unknown tags), encodes at every version to the same bytes or fails with
// the same error in both.
func TestTablesMatchPrinted(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	specs, err := schema.LoadDir(filepath.Join(corpus.SpecDir(), corpus.Dirs[0].Path))
	require.NoError(t, err)
	// The oracle is printed, and the package under test is not.
	gen := filepath.Join(corpus.ModuleRoot(), "conformance", "gen")
	tables, err := os.ReadFile(filepath.Join(gen, "clients", "describe_configs_response.go"))
	require.NoError(t, err)
	printed, err := os.ReadFile(filepath.Join(gen, "clientsprinted", "describe_configs_response.go"))
	require.NoError(t, err)
	require.Contains(t, string(tables), "codec.DecodeStruct(")
	require.NotContains(t, string(printed), "codec.DecodeStruct(")
	var messages, prefixes, mutations, encodes, refused int
	for _, spec := range specs {
		versions := wiregen.Versions(spec)
		for _, v := range versions {
			rng := rand.New(rand.NewPCG(uint64(v)+11, hash(spec.Name)))
			for i := range 3 {
				src := wiregen.Encode(spec, v, rng, wiregen.Options{UnknownTags: i == 1, LongStrings: i == 2, MaxArray: 1 + i})
				where := fmt.Sprintf("%s v%d sample %d", spec.Name, v, i)
				tab, printed := decodeBoth(t, spec.Name, src, v, where)
				requireSameEncodings(t, tab, printed, []int16{v}, where)
				messages++
				step := max(1, len(src)/40)
				for cut := 0; cut < len(src); cut += step {
					a, b := clients.NewByName(spec.Name), clientsprinted.NewByName(spec.Name)
					na, errA := a.Decode(src[:cut], v)
					nb, errB := b.DecodeAliased(src[:cut], v)
					require.Error(t, errA, "%s: prefix %d", where, cut)
					require.Equal(t, errB.Error(), errA.Error(), "%s: prefix %d", where, cut)
					require.Equal(t, nb, na, "%s: prefix %d", where, cut)
					prefixes++
				}
				if i == 1 {
					continue // the mutations of the other two samples suffice
				}
				for _, path := range leafPaths(reflect.ValueOf(tab).Elem(), nil) {
					for variant := range 2 {
						a, b := decodeBoth(t, spec.Name, src, v, where)
						mutate(at(reflect.ValueOf(a).Elem(), path), variant)
						mutate(at(reflect.ValueOf(b).Elem(), path), variant)
						n := requireSameEncodings(t, a, b, versions, fmt.Sprintf("%s, %v variant %d", where, path, variant))
						encodes += len(versions)
						refused += n
						mutations++
					}
				}
			}
		}
	}
	t.Logf("tables vs printed: %d messages, %d prefixes, %d mutations encoded at every version (%d encodes, %d refused alike)", messages, prefixes, mutations, encodes, refused)
	fmt.Printf("tables vs printed: messages=%d prefixes=%d mutations=%d encodes=%d refused=%d mismatches=0\n", messages, prefixes, mutations, encodes, refused)
}

// decodeBoth decodes src at v into a message of each package.
func decodeBoth(t *testing.T, name string, src []byte, v int16, where string) (tab, printed runtime.Message) {
	tab, printed = clients.NewByName(name), clientsprinted.NewByName(name)
	n, err := tab.Decode(src, v)
	require.NoError(t, err, where)
	require.Equal(t, len(src), n, where)
	n, err = printed.Decode(src, v)
	require.NoError(t, err, where)
	require.Equal(t, len(src), n, where)
	return tab, printed
}

// requireSameEncodings encodes a and b at each version, and requires the
// same bytes, or the same error; it returns how many versions refused.
func requireSameEncodings(t *testing.T, a, b runtime.Message, versions []int16, where string) (refused int) {
	for _, v := range versions {
		ba, errA := a.AppendTo(nil, v)
		bb, errB := b.AppendTo(nil, v)
		if errB != nil {
			require.Error(t, errA, "%s at v%d: printed refuses with %v", where, v, errB)
			require.Equal(t, errB.Error(), errA.Error(), "%s at v%d", where, v)
			refused++
			continue
		}
		require.NoError(t, errA, "%s at v%d", where, v)
		require.True(t, bytes.Equal(bb, ba), "%s at v%d: tables wrote\n%x\nprinted\n%x", where, v, ba, bb)
	}
	return refused
}

// A path leads from a message to one of its values: a field index, or -1
// for the first element of a slice.
type path []int

// leafPaths lists the paths to every value of v that mutate changes: every
// field, the first element of each array, and the fields of structs,
// nested or elements, within.
func leafPaths(v reflect.Value, prefix path) []path {
	var out []path
	switch {
	case v.Type() == reflect.TypeFor[runtime.NullString](), v.Type() == reflect.TypeFor[runtime.UUID]():
		return []path{prefix}
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out = append(out, leafPaths(v.Field(i), append(prefix[:len(prefix):len(prefix)], i))...)
			}
		}
		return out
	case v.Kind() == reflect.Pointer:
		out = append(out, prefix)
		if !v.IsNil() {
			out = append(out, leafPaths(v.Elem(), prefix)...)
		}
		return out
	case v.Kind() == reflect.Slice && v.Type() != reflect.TypeFor[[]byte]() && v.Type() != reflect.TypeFor[runtime.Tags]():
		out = append(out, prefix)
		if v.Len() > 0 {
			out = append(out, leafPaths(v.Index(0), append(prefix[:len(prefix):len(prefix)], -1))...)
		}
		return out
	}
	return []path{prefix}
}

// at follows p from v; a nil pointer on the way is not followed (the
// pointer itself is then the value).
func at(v reflect.Value, p path) reflect.Value {
	for _, i := range p {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return v
			}
			v = v.Elem()
		}
		if i < 0 {
			v = v.Index(0)
		} else {
			v = v.Field(i)
		}
	}
	return v
}

var tooLong = strings.Repeat("k", runtime.MaxStringLen+1)

// mutate sets v to a value other than the one decoded: variant 0 and 1
// differ (null against too long, for strings; an unknown tag colliding
// with the known ones against one above them).
func mutate(v reflect.Value, variant int) {
	switch {
	case v.Type() == reflect.TypeFor[runtime.NullString]():
		if variant == 0 {
			v.Set(reflect.ValueOf(runtime.NullString{}))
		} else {
			v.Set(reflect.ValueOf(runtime.NewNullString(tooLong)))
		}
		return
	case v.Type() == reflect.TypeFor[runtime.Tags]():
		tag := uint32(0)
		if variant == 1 {
			tag = 1000
		}
		v.Set(reflect.ValueOf(runtime.Tags{{Tag: tag, Data: []byte{7}}}))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() ^ int64(1+variant))
	case reflect.Uint16, reflect.Uint32:
		v.SetUint(v.Uint() ^ uint64(1+variant))
	case reflect.Float64:
		v.SetFloat(v.Float() + 1.5)
	case reflect.String:
		if variant == 0 {
			v.SetString(v.String() + "z")
		} else {
			v.SetString(tooLong)
		}
	case reflect.Array: // runtime.UUID
		v.Index(variant).SetUint(v.Index(variant).Uint() ^ 1)
	case reflect.Slice:
		if variant == 0 {
			v.Set(reflect.Zero(v.Type()))
		} else if v.Type() == reflect.TypeFor[[]byte]() {
			v.SetBytes(append(bytes.Clone(v.Bytes()), 1))
		} else {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0)) // empty, not null
		}
	case reflect.Pointer:
		if variant == 0 {
			v.Set(reflect.Zero(v.Type()))
		} else if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
	}
}
