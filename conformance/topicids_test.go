//go:build corpus

package conformance

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
)

var updateTopicIDs = flag.Bool("update-topic-ids", false, "rewrite testdata/topic_ids/*.txt (review every changed line)")

// rawField is a spec field as the pin below reads it, straight from the
// JSON, so that releases the loader does not read yet count too.
type rawField struct {
	Name       string     `json:"name"`
	Type       string     `json:"type"`
	Versions   string     `json:"versions"`
	EntityType string     `json:"entityType"`
	Fields     []rawField `json:"fields"`
}

type rawSpec struct {
	Name          string     `json:"name"`
	Fields        []rawField `json:"fields"`
	CommonStructs []struct {
		Name   string     `json:"name"`
		Fields []rawField `json:"fields"`
	} `json:"commonStructs"`
}

// withoutComments blanks the comments of a spec file outside strings (//
// on lines of their own and after values, and a few /* */ blocks).
func withoutComments(data []byte) []byte {
	out := append([]byte(nil), data...)
	inString := false
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case !inString && c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return out // left for json to report
			}
			for stop := i + 2 + end + 2; i < stop; i++ {
				out[i] = ' '
			}
			i--
		}
	}
	return out
}

// TestTopicIDFieldsPinned lists every uuid field of the corpus, and of the
// 4.1.1 and 4.2.0-rc1 releases when KAFKA_SPEC_RELEASES_DIR has them, with
// what schema.IsTopicID says of it, against testdata/topic_ids: the visitors
// give the fields it marks as runtime.EntityTopicID, and the proxy's tenant
// isolation refuses ids it has not seen, so a uuid field a new release adds
// must fail here until someone has read what it holds (then
// -update-topic-ids, and a look at the diff).
func TestTopicIDFieldsPinned(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	sources := map[string]string{"snapshot": corpus.SpecDir()}
	releases := os.Getenv("KAFKA_SPEC_RELEASES_DIR")
	if releases == "" {
		releases = filepath.Join(filepath.Dir(corpus.SpecDir()), "kafka-spec-releases")
	}
	for _, r := range []string{"4.1.1", "4.2.0-rc1"} {
		if st, err := os.Stat(filepath.Join(releases, r)); err == nil && st.IsDir() {
			sources[r] = filepath.Join(releases, r)
		} else {
			t.Logf("no %s specs at %s: that pin is not checked", r, releases)
		}
	}
	for name, root := range sources {
		got := uuidFields(t, root)
		golden := filepath.Join("testdata", "topic_ids", name+".txt")
		if *updateTopicIDs {
			require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
			require.NoError(t, os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644))
		}
		want, err := os.ReadFile(golden)
		require.NoError(t, err, "run with -update-topic-ids once the fields are reviewed")
		require.Equal(t, strings.Split(strings.TrimSuffix(string(want), "\n"), "\n"), got,
			"%s: uuid fields and whether they hold topic ids (schema.IsTopicID) changed; review each, then -update-topic-ids", name)
		marked := 0
		for _, l := range got {
			if strings.HasSuffix(l, " topicId") {
				marked++
			}
		}
		t.Logf("%s: %d uuid fields, %d topic ids", name, len(got), marked)
		require.NotZero(t, marked, "%s: no topic id found: the walk is broken", name)
	}
}

// uuidFields lists "folder/Spec Path[] versions topicId|other" for every
// uuid field of the spec folders of corpus.Dirs under root.
func uuidFields(t *testing.T, root string) []string {
	var out []string
	for _, d := range corpus.Dirs {
		paths, _ := filepath.Glob(filepath.Join(root, d.Path, "*.json"))
		for _, p := range paths {
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			var s rawSpec
			require.NoError(t, json.Unmarshal(withoutComments(data), &s), p)
			prefix := d.Package + "/" + s.Name + " "
			out = append(out, walkUUIDs(prefix, s.Fields)...)
			for _, c := range s.CommonStructs {
				out = append(out, walkUUIDs(prefix+c.Name+".", c.Fields)...)
			}
		}
	}
	sort.Strings(out)
	return out
}

func walkUUIDs(prefix string, fields []rawField) []string {
	var out []string
	for _, f := range fields {
		path := prefix + f.Name
		elem, array := strings.CutPrefix(f.Type, "[]")
		if array {
			path += "[]"
		}
		if elem == "uuid" {
			sf := schema.Field{Name: f.Name, EntityType: f.EntityType, Type: schema.Type{Kind: schema.KindUUID, Array: array}}
			kind := "other"
			if schema.IsTopicID(&sf) {
				kind = "topicId"
			}
			out = append(out, fmt.Sprintf("%s v%s %s", path, f.Versions, kind))
		}
		out = append(out, walkUUIDs(path+".", f.Fields)...)
	}
	return out
}
