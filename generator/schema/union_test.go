package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadFolder loads specs given as file name -> text, checked together.
func loadFolder(t *testing.T, dir string, files map[string]string) []*Spec {
	t.Helper()
	var specs []*Spec
	for name, text := range files {
		s, err := Load(dir+"/"+name, []byte(text))
		require.NoError(t, err, name)
		specs = append(specs, s)
	}
	require.Empty(t, CheckPackage(specs))
	return specs
}

const (
	oldProduce = `{ "apiKey": 0, "type": "request", "name": "ProduceRequest", "validVersions": "0-9", "flexibleVersions": "9+",
  "fields": [
    { "name": "Acks", "type": "int16", "versions": "0+" },
    { "name": "Old", "type": "int32", "versions": "0-2" },
    { "name": "Name", "type": "string", "versions": "0+", "nullableVersions": "5+" }
  ] }`
	newProduce = `{ "apiKey": 0, "type": "request", "name": "ProduceRequest", "validVersions": "3-13", "flexibleVersions": "9+",
  "fields": [
    { "name": "Acks", "type": "int16", "versions": "0+" },
    { "name": "Name", "type": "string", "versions": "0-12", "nullableVersions": "5+" },
    { "name": "TopicId", "type": "uuid", "versions": "13+" }
  ] }`
	response = `{ "apiKey": 0, "type": "response", "name": "ProduceResponse", "validVersions": "0-13", "flexibleVersions": "9+",
  "fields": [ { "name": "Code", "type": "int16", "versions": "0+" } ] }`
)

func TestUnionMergesVersionsAndFields(t *testing.T) {
	older := loadFolder(t, "old", map[string]string{"ProduceRequest.json": oldProduce, "ProduceResponse.json": response})
	newer := loadFolder(t, "new", map[string]string{"ProduceRequest.json": newProduce, "ProduceResponse.json": response})
	specs, err := Union(older, newer)
	require.NoError(t, err)
	require.Len(t, specs, 2)
	req := specs[0]
	assert.Equal(t, "new/ProduceRequest.json", req.File, "the newest folder owns the documentation")
	assert.Equal(t, Versions{0, 13}, req.ValidVersions)
	assert.Equal(t, Versions{9, NoMax}, req.FlexibleVersions)
	var got []string
	for _, f := range req.Root.Fields {
		got = append(got, f.Name+" "+f.Versions.String()+" nullable "+f.NullableVersions.String()+" present "+f.Present.String())
	}
	assert.Equal(t, []string{
		"Acks 0+ nullable none present 0-13",
		"Old 0-2 nullable none present 0-2",
		"Name 0-12 nullable 5+ present 0-12",
		"TopicId 13+ nullable none present 13",
	}, got, "a field only removed versions had comes back at its place")
}

func TestUnionRenames(t *testing.T) {
	// Kafka 4.0 renamed VoteRequest's CandidateEpoch to ReplicaEpoch in
	// place, and 4.1 ListClientMetricsResources to ListConfigResources.
	older := loadFolder(t, "old", map[string]string{
		"ListClientMetricsResourcesRequest.json": `{ "apiKey": 74, "type": "request", "name": "ListClientMetricsResourcesRequest", "validVersions": "0", "flexibleVersions": "0+",
		  "fields": [ { "name": "CandidateEpoch", "type": "int32", "versions": "0+" } ] }`,
		"ListClientMetricsResourcesResponse.json": `{ "apiKey": 74, "type": "response", "name": "ListClientMetricsResourcesResponse", "validVersions": "0", "flexibleVersions": "0+", "fields": [] }`,
	})
	newer := loadFolder(t, "new", map[string]string{
		"ListConfigResourcesRequest.json": `{ "apiKey": 74, "type": "request", "name": "ListConfigResourcesRequest", "validVersions": "0-1", "flexibleVersions": "0+",
		  "fields": [ { "name": "ReplicaEpoch", "type": "int32", "versions": "0+" } ] }`,
		"ListConfigResourcesResponse.json": `{ "apiKey": 74, "type": "response", "name": "ListConfigResourcesResponse", "validVersions": "0-1", "flexibleVersions": "0+", "fields": [] }`,
	})
	specs, err := Union(older, newer)
	require.NoError(t, err)
	require.Len(t, specs, 2)
	assert.Equal(t, "ListConfigResourcesRequest", specs[0].Name)
	require.Len(t, specs[0].Root.Fields, 1)
	assert.Equal(t, "ReplicaEpoch", specs[0].Root.Fields[0].Name)
	assert.Equal(t, Versions{0, 1}, specs[0].Root.Fields[0].Present)
}

func TestUnionUnstableVersionYields(t *testing.T) {
	// The old folder's v1 is unstable and differs: the newer one's wins.
	older := loadFolder(t, "old", map[string]string{
		"ShareRequest.json": `{ "apiKey": 78, "type": "request", "name": "ShareRequest", "validVersions": "0-1", "flexibleVersions": "0+", "latestVersionUnstable": true,
		  "fields": [ { "name": "Early", "type": "int32", "versions": "1+" } ] }`,
		"ShareResponse.json": `{ "apiKey": 78, "type": "response", "name": "ShareResponse", "validVersions": "0-1", "flexibleVersions": "0+",
		  "fields": [ { "name": "Early", "type": "int32", "versions": "1+" } ] }`,
	})
	newer := loadFolder(t, "new", map[string]string{
		"ShareRequest.json": `{ "apiKey": 78, "type": "request", "name": "ShareRequest", "validVersions": "1-2", "flexibleVersions": "0+",
		  "fields": [ { "name": "Stable", "type": "int64", "versions": "1+" } ] }`,
		"ShareResponse.json": `{ "apiKey": 78, "type": "response", "name": "ShareResponse", "validVersions": "1-2", "flexibleVersions": "0+", "fields": [] }`,
	})
	specs, err := Union(older, newer)
	require.NoError(t, err)
	for _, s := range specs {
		assert.Equal(t, Versions{0, 2}, s.ValidVersions, s.Name)
	}
	req := specs[0]
	require.Len(t, req.Root.Fields, 1, "the unstable v1 of the old folder is not kept")
	assert.Equal(t, "Stable", req.Root.Fields[0].Name)
	assert.Equal(t, Versions{1, 2}, req.Root.Fields[0].Present)
}

func TestUnionDisagreements(t *testing.T) {
	for _, c := range []struct {
		name, old, new string
		want           string
	}{{
		name: "nullability",
		old:  `{ "type": "data", "name": "D", "validVersions": "0-3", "flexibleVersions": "none", "fields": [ { "name": "S", "type": "string", "versions": "0+", "nullableVersions": "2+" } ] }`,
		new:  `{ "type": "data", "name": "D", "validVersions": "2-4", "flexibleVersions": "none", "fields": [ { "name": "S", "type": "string", "versions": "0+", "nullableVersions": "3+" } ] }`,
		want: "new/D.json:1:96: D.S: the folders disagree at version 2: nullable in old/D.json:1:96, not in new/D.json:1:96",
	}, {
		name: "presence",
		old:  `{ "type": "data", "name": "D", "validVersions": "0-3", "flexibleVersions": "none", "fields": [ { "name": "A", "type": "int32", "versions": "0+" } ] }`,
		new:  `{ "type": "data", "name": "D", "validVersions": "2-4", "flexibleVersions": "none", "fields": [ { "name": "A", "type": "int32", "versions": "3+" } ] }`,
		want: "new/D.json:1:96: D.A: the folders disagree at version 2: present in old/D.json:1:96, not in new/D.json:1:96",
	}, {
		name: "type",
		old:  `{ "type": "data", "name": "D", "validVersions": "0-3", "flexibleVersions": "none", "fields": [ { "name": "A", "type": "int32", "versions": "0+" } ] }`,
		new:  `{ "type": "data", "name": "D", "validVersions": "2-4", "flexibleVersions": "none", "fields": [ { "name": "A", "type": "int64", "versions": "0+" } ] }`,
		want: "new/D.json:1:96: D.A: type int64 here but int32 in old/D.json:1:96",
	}, {
		name: "flexibility",
		old:  `{ "type": "data", "name": "D", "validVersions": "0-3", "flexibleVersions": "3+", "fields": [] }`,
		new:  `{ "type": "data", "name": "D", "validVersions": "2-4", "flexibleVersions": "4+", "fields": [] }`,
		want: "new/D.json:1:1: D: version 3 is flexible in one folder and not in the other (flexibleVersions 4+ here, 3+ in old/D.json:1:1)",
	}, {
		name: "gap",
		old:  `{ "type": "data", "name": "D", "validVersions": "0-1", "flexibleVersions": "none", "fields": [] }`,
		new:  `{ "type": "data", "name": "D", "validVersions": "3-4", "flexibleVersions": "none", "fields": [] }`,
		want: "new/D.json:1:1: D: the folders' valid versions leave a gap: 0-1 in old/D.json, 3-4 in new/D.json",
	}} {
		t.Run(c.name, func(t *testing.T) {
			older := loadFolder(t, "old", map[string]string{"D.json": c.old})
			newer := loadFolder(t, "new", map[string]string{"D.json": c.new})
			_, err := Union(older, newer)
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
		})
	}
}
