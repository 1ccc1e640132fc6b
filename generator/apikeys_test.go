package generator

import (
	"testing"

	. "github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"

	"github.com/kafkagen/kafkagen/generator/schema"
)

func TestAPIKeyEntries(t *testing.T) {
	spec := func(name string, typ schema.SpecType, key int16) *specFile {
		return &specFile{spec: &schema.Spec{Name: name, Type: typ, APIKey: key}}
	}
	names := &goNames{files: []*specFile{
		spec("FetchResponse", schema.TypeResponse, 1),
		spec("ProduceRequest", schema.TypeRequest, 0),
		spec("FetchRequest", schema.TypeRequest, 1),
		spec("OnlyAnswerResponse", schema.TypeResponse, 90),
		spec("TopicRecord", schema.TypeMetadata, 2),
		spec("RequestHeader", schema.TypeHeader, -1),
	}}
	var got []apiKeyEntry
	for _, e := range apiKeyEntries(names) {
		got = append(got, *e)
	}
	assert.Equal(t, []apiKeyEntry{
		{key: 0, name: "Produce", specs: []string{"ProduceRequest"}},
		{key: 1, name: "Fetch", specs: []string{"FetchRequest", "FetchResponse"}},
		{key: 90, name: "OnlyAnswer", specs: []string{"OnlyAnswerResponse"}},
	}, got, "metadata records and headers have no api key entry; a response alone names its api")

	f := NewFile("records")
	assert.False(t, emitAPIKeys(f, &goNames{files: names.files[4:]}), "a package without requests or responses gets no api keys file")
}
