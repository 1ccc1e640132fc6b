package generator

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"Fetch", "Fetch", 0},
		{"Ftch", "Fetch", 1},
		{"Fetchh", "Fetch", 1},
		{"Fetdh", "Fetch", 1},
		{"Pign", "Ping", 1},
		{"ab", "ba", 1},
		{"abc", "ca", 3},
		{"kitten", "sitting", 3},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, editDistance(c.a, c.b), "%q %q", c.a, c.b)
		assert.Equal(t, c.want, editDistance(c.b, c.a), "%q %q", c.b, c.a)
	}
}

func TestClosestName(t *testing.T) {
	names := []string{"Fetch", "FetchRequest", "FetchResponse", "Metadata", "MetadataRequest", "MetadataResponse", "ApiVersions"}
	cases := []struct{ name, want string }{
		{"Metdata", "Metadata"},
		{"metadta", "Metadata"},
		{"APIVersion", "ApiVersions"},
		{"FetchReqeust", "FetchRequest"},
		{"Fetc", "Fetch"},
		{"Produce", ""}, // nothing near
		{"Fe", ""},      // a short name may differ in one letter only
	}
	for _, c := range cases {
		assert.Equal(t, c.want, closestName(c.name, names), c.name)
	}
}
