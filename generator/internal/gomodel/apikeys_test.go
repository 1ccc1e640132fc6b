package gomodel

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kafkagen/kafkagen/generator/schema"
)

func TestAPIKeys(t *testing.T) {
	spec := func(name string, typ schema.SpecType, key int16) *SpecFile {
		return &SpecFile{Spec: &schema.Spec{Name: name, Type: typ, APIKey: key}}
	}
	names := &Names{Files: []*SpecFile{
		spec("FetchResponse", schema.TypeResponse, 1),
		spec("ProduceRequest", schema.TypeRequest, 0),
		spec("FetchRequest", schema.TypeRequest, 1),
		spec("OnlyAnswerResponse", schema.TypeResponse, 90),
		spec("TopicRecord", schema.TypeMetadata, 2),
		spec("RequestHeader", schema.TypeHeader, -1),
	}}
	var got []APIKey
	for _, e := range names.APIKeys() {
		got = append(got, *e)
	}
	assert.Equal(t, []APIKey{
		{Key: 0, Name: "Produce", Specs: []string{"ProduceRequest"}},
		{Key: 1, Name: "Fetch", Specs: []string{"FetchRequest", "FetchResponse"}},
		{Key: 90, Name: "OnlyAnswer", Specs: []string{"OnlyAnswerResponse"}},
	}, got, "metadata records and headers have no api key entry; a response alone names its api")
	assert.Empty(t, (&Names{Files: names.Files[4:]}).APIKeys(), "a package without requests or responses has no api keys")
}
