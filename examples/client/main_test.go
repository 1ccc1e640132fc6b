package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
)

// The tool against kfake (franz-go's fake Kafka) on 127.0.0.1, with the
// topic created beforehand: every line of its output.
func TestRunAgainstKfake(t *testing.T) {
	const topic = "kafkagen-example"
	ctx, addr := startKfake(t, kfake.SeedTopics(1, topic))
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, addr, topic))

	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 4+1000, out.String())
	assert.Regexp(t, `^`+addr+` serves \d+ APIs; Metadata v\d+, Produce v\d+, Fetch v\d+$`, lines[0])
	assert.Regexp(t, `^broker 0 at 127\.0\.0\.1:\d+$`, lines[1])
	assert.Equal(t, "topic "+topic+": 1 partitions", lines[2])
	assert.Equal(t, "produced 1000 records (zstd) at offset 0", lines[3])
	for i, line := range lines[4:] {
		require.Equal(t, fmt.Sprintf("%d key-%d=value-%d", i, i, i), line)
	}
}

// A topic the broker does not have is reported with Kafka's error.
func TestRunUnknownTopic(t *testing.T) {
	ctx, addr := startKfake(t)
	err := run(ctx, &bytes.Buffer{}, addr, "missing")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "topic missing: UNKNOWN_TOPIC_OR_PARTITION")
}
