package reverse

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/wire"
)

// TestRun runs the reverse direction against an in-process kfake: both
// passes, each checking every answer and the records fetched back.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	detail, err := Run(ctx, 20)
	require.NoError(t, err)
	t.Log(detail)
	assert.Contains(t, detail, "kafkagen-reverse-highest: 20 records in 5 batches")
	assert.Contains(t, detail, "kafkagen-reverse-lowest: 20 records in 4 batches")
	assert.Contains(t, detail, "Produce v3, ListOffsets v0, Fetch v4)")
}

// TestClientNeedsOneRecordPerCodec: fewer records than codecs is refused
// before anything is sent.
func TestClientNeedsOneRecordPerCodec(t *testing.T) {
	_, err := Client(context.Background(), "127.0.0.1:1", 4)
	require.EqualError(t, err, "need at least 5 records, one per codec")
}

func TestAPIVersionsRetry(t *testing.T) {
	answer := func(code int16, keys ...clients.APIVersionsResponseAPIVersion) *clients.APIVersionsResponse {
		return &clients.APIVersionsResponse{ErrorCode: code, APIKeys: keys}
	}
	apiVersions := func(hi int16) clients.APIVersionsResponseAPIVersion {
		return clients.APIVersionsResponseAPIVersion{APIKey: wire.APIVersionsKey, MinVersion: 0, MaxVersion: hi}
	}
	cases := []struct {
		name  string
		resp  *clients.APIVersionsResponse
		retry int16
		ok    bool
	}{
		{"answered", answer(0, apiVersions(4)), 0, false},
		{"older broker", answer(wire.UnsupportedVersion.Code, apiVersions(2)), 2, true},
		{"no range listed", answer(wire.UnsupportedVersion.Code), 0, false},
		{"range not below the version sent", answer(wire.UnsupportedVersion.Code, apiVersions(4)), 0, false},
	}
	for _, c := range cases {
		retry, ok := apiVersionsRetry(c.resp, 4)
		assert.Equal(t, c.ok, ok, c.name)
		assert.Equal(t, c.retry, retry, c.name)
	}
}
