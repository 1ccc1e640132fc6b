//go:build corpus

package conformance

import (
	"bytes"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/dynamic"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/runtime"
)

// dumpFuzzTarget is the (spec, package) list the fuzz targets index into.
type dumpFuzzTarget struct {
	spec    *schema.Spec
	message *dynamic.Message
	pkg     genPackage
}

// dumpFuzzTargets loads the corpus; index maps spec file base names (as the
// vectors name them) to their position.
func dumpFuzzTargets(f *testing.F) (targets []dumpFuzzTarget, index map[string]uint16) {
	if !corpus.Available() {
		f.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	index = map[string]uint16{}
	for _, d := range corpus.Dirs {
		specs, err := schema.LoadDir(filepath.Join(corpus.SpecDir(), d.Path))
		require.NoError(f, err)
		for _, s := range specs {
			index[strings.TrimSuffix(filepath.Base(s.File), ".json")] = uint16(len(targets))
			targets = append(targets, dumpFuzzTarget{s, dynamic.NewMessage(s), packages[d.Package]})
		}
	}
	return targets, index
}

// FuzzDynamicDecode: on any bytes, the run-time interpreter of kafkagen dump
// and the generated decoder accept the same inputs, read as many bytes, and
// print the same JSON; neither panics. Seeded with the Java vectors.
func FuzzDynamicDecode(f *testing.F) {
	targets, index := dumpFuzzTargets(f)
	for _, v := range loadJavaJSONVectors(f) {
		src, _ := hex.DecodeString(v.Hex)
		f.Add(index[v.File], v.Version, src)
	}
	f.Fuzz(func(t *testing.T, which uint16, version int16, data []byte) {
		tg := targets[int(which)%len(targets)]
		if !tg.spec.ValidVersions.Contains(version) {
			version = tg.spec.ValidVersions.Lo + version%(tg.spec.ValidVersions.Hi-tg.spec.ValidVersions.Lo+1)
			if version < tg.spec.ValidVersions.Lo {
				version += tg.spec.ValidVersions.Hi - tg.spec.ValidVersions.Lo + 1
			}
		}
		m := tg.pkg.newByName(tg.spec.Name).(runtime.JSONMessage)
		n, genErr := m.Decode(data, version)
		st, dn, dynErr := tg.message.Decode(data, version)
		if (genErr == nil) != (dynErr == nil) {
			t.Fatalf("%s v%d %x: generated %v, dynamic %v", tg.spec.Name, version, data, genErr, dynErr)
		}
		if genErr != nil {
			return
		}
		if n != dn {
			t.Fatalf("%s v%d: generated read %d bytes, dynamic %d", tg.spec.Name, version, n, dn)
		}
		want, err1 := m.AppendJSON(nil, version, runtime.JSONOptions{})
		got, err2 := tg.message.AppendJSON(nil, st, version, dynamic.Options{})
		if (err1 == nil) != (err2 == nil) || !bytes.Equal(want, got) {
			t.Fatalf("%s v%d: JSON differs (%v, %v)\n got %s\nwant %s", tg.spec.Name, version, err2, err1, got, want)
		}
	})
}

// FuzzDecodeJSON: any JSON DecodeJSON accepts is a message that AppendTo
// can write and AppendJSON writes back to JSON that reads to the same
// bytes; nothing panics. Seeded with Java's JSON of the vectors.
func FuzzDecodeJSON(f *testing.F) {
	targets, index := dumpFuzzTargets(f)
	for _, v := range loadJavaJSONVectors(f) {
		f.Add(index[v.File], v.Version, []byte(v.JSON))
	}
	f.Fuzz(func(t *testing.T, which uint16, version int16, data []byte) {
		tg := targets[int(which)%len(targets)]
		if !tg.spec.ValidVersions.Contains(version) {
			return
		}
		m := tg.pkg.newByName(tg.spec.Name).(runtime.JSONMessage)
		if m.DecodeJSON(data, version) != nil {
			return
		}
		wire, err := m.AppendTo(nil, version)
		if err != nil {
			t.Fatalf("%s v%d: accepted JSON does not encode: %v\n%s", tg.spec.Name, version, err, data)
		}
		text, err := m.AppendJSON(nil, version, runtime.JSONOptions{})
		if err != nil {
			t.Fatalf("%s v%d: accepted JSON does not write back: %v\n%s", tg.spec.Name, version, err, data)
		}
		again := tg.pkg.newByName(tg.spec.Name).(runtime.JSONMessage)
		if err := again.DecodeJSON(text, version); err != nil {
			t.Fatalf("%s v%d: JSON written back does not read: %v\n%s", tg.spec.Name, version, err, text)
		}
		if out, _ := again.AppendTo(nil, version); !bytes.Equal(out, wire) {
			t.Fatalf("%s v%d: bytes differ after writing the JSON back\n%s", tg.spec.Name, version, text)
		}
	})
}
