package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/proxy"
)

// The typed knowledge of this command and the proxy's defaults, checked
// against Kafka's spec files ($KAFKA_SPEC_DIR).

// specField is a field of a spec file, as far as these checks read it.
type specField struct {
	Name       string      `json:"name"`
	Type       string      `json:"type"`
	Versions   string      `json:"versions"`
	EntityType string      `json:"entityType"`
	Fields     []specField `json:"fields"`
}

type specFile struct {
	Name          string      `json:"name"`
	Type          string      `json:"type"`
	APIKey        *int16      `json:"apiKey"`
	Fields        []specField `json:"fields"`
	CommonStructs []struct {
		Name   string      `json:"name"`
		Fields []specField `json:"fields"`
	} `json:"commonStructs"`
}

var lineComment = regexp.MustCompile(`(?m)^\s*//.*$`)

// readSpecs reads every message spec of the client protocol.
func readSpecs(t *testing.T) []specFile {
	spec := os.Getenv("KAFKA_SPEC_DIR")
	if spec == "" {
		spec = "../../../shared/kafka-spec"
	}
	dir := filepath.Join(spec, "clients/src/main/resources/common/message")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(paths) == 0 {
		t.Skipf("no Kafka spec files in %s (set KAFKA_SPEC_DIR)", dir)
	}
	var out []specFile
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		var f specFile
		require.NoError(t, json.Unmarshal(lineComment.ReplaceAll(data, nil), &f), p)
		out = append(out, f)
	}
	return out
}

// inVersions reports whether a "versions" range ("3+", "0-12", "none")
// holds v.
func inVersions(r string, v int) bool {
	lo, hi, ok := strings.Cut(r, "-")
	if r == "none" {
		return false
	}
	l, _ := strconv.Atoi(strings.TrimSuffix(lo, "+"))
	if !ok {
		return v >= l && (strings.HasSuffix(lo, "+") || v == l)
	}
	h, _ := strconv.Atoi(hi)
	return v >= l && v <= h
}

// names reports whether fields (and common structs they use) hold a
// topic, group or transactional id at version v.
func names(fields []specField, common map[string][]specField, v int) bool {
	for _, f := range fields {
		if !inVersions(f.Versions, v) {
			continue
		}
		switch f.EntityType {
		case "topicName", "groupId", "transactionalId":
			return true
		}
		sub := f.Fields
		if sub == nil {
			sub = common[strings.TrimPrefix(f.Type, "[]")]
		}
		if names(sub, common, v) {
			return true
		}
	}
	return false
}

// Fetch from v13 holds no name, request or response, and v12 does: the
// tenant leaves exactly those responses undecoded (the requests it reads
// for their topic ids).
func TestFetchNamesNoTopic(t *testing.T) {
	for _, f := range readSpecs(t) {
		if f.APIKey == nil || *f.APIKey != 1 {
			continue
		}
		common := map[string][]specField{}
		for _, c := range f.CommonStructs {
			common[c.Name] = c.Fields
		}
		for v := 0; v <= 17; v++ {
			assert.Equal(t, v < fetchTopicIDsFrom, names(f.Fields, common, v), "%s v%d", f.Name, v)
			assert.Equal(t, v < fetchTopicIDsFrom || f.Type == "request", tenantDecode(1, int16(v), f.Type == "request"), "%s v%d", f.Name, v)
		}
	}
}

// endpoints reports whether fields (or structs within) hold a broker
// address: a string Host beside an int32 Port.
func endpoints(fields []specField, common map[string][]specField) bool {
	var host, port bool
	for _, f := range fields {
		host = host || f.Name == "Host" && f.Type == "string"
		port = port || f.Name == "Port" && f.Type == "int32"
		sub := f.Fields
		if sub == nil {
			sub = common[strings.TrimPrefix(f.Type, "[]")]
		}
		if endpoints(sub, common) {
			return true
		}
	}
	return host && port
}

// proxy.DefaultEndpointAPIs lists exactly the apis whose responses carry
// broker addresses.
func TestDefaultEndpointAPIs(t *testing.T) {
	var want []int16
	for _, f := range readSpecs(t) {
		common := map[string][]specField{}
		for _, c := range f.CommonStructs {
			common[c.Name] = c.Fields
		}
		if f.Type == "response" && endpoints(f.Fields, common) {
			want = append(want, *f.APIKey)
		}
	}
	slices.Sort(want)
	assert.Equal(t, want, proxy.DefaultEndpointAPIs)
}
