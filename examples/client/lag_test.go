package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kafkagen/kafkagen/examples/client/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The lag of a group against kfake: 1,000 records on partition 0 (run), the
// group's offsets committed at 400 and 0 without joining it, then every line
// runLag prints.
func TestLagAgainstKfake(t *testing.T) {
	const topic, group = "kafkagen-example", "lag-group"
	ctx, addr := startKfake(t, kfake.SeedTopics(2, topic))
	require.NoError(t, run(ctx, &bytes.Buffer{}, addr, topic))
	commit(ctx, t, addr, group, topic, map[int32]int64{0: 400, 1: 0})

	var out bytes.Buffer
	require.NoError(t, runLag(ctx, &out, addr, group))
	assert.Equal(t, topic+"/0 committed 400 latest 1000 lag 600\n"+
		topic+"/1 committed 0 latest 0 lag 0\n", out.String())
}

// A group the broker does not know (kfake answers OffsetFetch with
// GROUP_ID_NOT_FOUND) is reported with Kafka's error and the group's name.
func TestLagOfUnknownGroup(t *testing.T) {
	ctx, addr := startKfake(t)
	var out bytes.Buffer
	err := runLag(ctx, &out, addr, "nobody")
	require.ErrorIs(t, err, kerrors.GroupIDNotFound)
	assert.Contains(t, err.Error(), "offsets of nobody")
	assert.Empty(t, out.String())
}

// startKfake starts a one-broker kfake cluster on 127.0.0.1, closed when the
// test ends, and returns its address and a context bounding the test.
func startKfake(t *testing.T, opts ...kfake.Opt) (context.Context, string) {
	t.Helper()
	cluster, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(cluster.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx, cluster.ListenAddrs()[0]
}

// commit stores offsets for group as an admin tool does: generation -1, no
// member. The topic goes by name and id, whichever the version carries.
func commit(ctx context.Context, t *testing.T, addr, group, topic string, offsets map[int32]int64) {
	t.Helper()
	conn, err := wire.Dial(ctx, addr, wire.ConnConfig{ClientID: "lag-test"})
	require.NoError(t, err)
	defer conn.Close()
	meta := kafkamsg.NewMetadataRequest()
	meta.Topics = []kafkamsg.MetadataRequestTopic{kafkamsg.MakeMetadataRequestTopic()}
	meta.Topics[0].Name = runtime.NewNullString(topic)
	var metaResp kafkamsg.MetadataResponse
	require.NoError(t, conn.Do(ctx, meta, &metaResp))

	req := kafkamsg.NewOffsetCommitRequest()
	req.GroupID = group
	ct := kafkamsg.MakeOffsetCommitRequestTopic()
	ct.Name, ct.TopicID = topic, metaResp.Topics[0].TopicID
	for partition, offset := range offsets {
		p := kafkamsg.MakeOffsetCommitRequestPartition()
		p.PartitionIndex, p.CommittedOffset = partition, offset
		ct.Partitions = append(ct.Partitions, p)
	}
	req.Topics = append(req.Topics, ct)
	var resp kafkamsg.OffsetCommitResponse
	require.NoError(t, conn.Do(ctx, req, &resp))
	for _, rt := range resp.Topics {
		for _, rp := range rt.Partitions {
			require.NoError(t, kerrors.ErrorCode(rp.ErrorCode), "commit %d", rp.PartitionIndex)
		}
	}
}
