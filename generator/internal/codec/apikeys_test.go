package codec

import (
	"testing"

	. "github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/schema"
)

func TestAPIKeysFileOnlyWithAPIs(t *testing.T) {
	names, err := gomodel.Build([]*schema.Spec{{Name: "TopicRecord", Type: schema.TypeMetadata, APIKey: 2, Root: &schema.Struct{}}})
	assert.NoError(t, err)
	assert.False(t, PrintAPIKeys(NewFile("records"), names), "a package without requests or responses gets no api keys file")
}
