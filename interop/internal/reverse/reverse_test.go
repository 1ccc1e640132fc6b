package reverse

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	assert.Contains(t, detail, "SASL_SSL with SCRAM-SHA-512: kafkagen-reverse-sasl-ssl: 20 records in 5 batches")
	assert.Regexp(t, `re-authenticated [1-9]\d* times \(sessions of 1500 ms\)`, detail)
	assert.Contains(t, detail, "a wrong password: kfake closed the connection without answering SASL_AUTHENTICATION_FAILED")
}

// TestClientNeedsOneRecordPerCodec: fewer records than codecs is refused
// before anything is sent.
func TestClientNeedsOneRecordPerCodec(t *testing.T) {
	_, err := Client(context.Background(), "127.0.0.1:1", 4)
	require.EqualError(t, err, "need at least 5 records, one per codec")
}
