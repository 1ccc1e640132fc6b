package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"sort"
	"strconv"

	"github.com/kafkagen/kafkagen/examples/client/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// partitionLag is one committed partition of a group.
type partitionLag struct {
	topic             string
	partition         int32
	committed, latest int64
}

// runLag prints a consumer group's lag per partition: FindCoordinator,
// OffsetFetch from the coordinator, Metadata for the topics' names (OffsetFetch
// v10 answers with topic ids) and leaders, ListOffsets from each leader. Every
// call goes at the newest version both sides speak, as Conn.Do picks it.
func runLag(ctx context.Context, out io.Writer, broker, group string) error {
	cfg := wire.ConnConfig{ClientID: "kafkagen-example"}
	conn, err := wire.Dial(ctx, broker, cfg)
	if err != nil {
		return err
	}
	defer conn.Close()
	dial := func(host string, port int32) (*wire.Conn, error) {
		return wire.Dial(ctx, net.JoinHostPort(host, strconv.Itoa(int(port))), cfg)
	}

	find := kafkamsg.NewFindCoordinatorRequest()
	find.CoordinatorKeys = []string{group} // KeyType 0: a group
	var found kafkamsg.FindCoordinatorResponse
	if err := conn.Do(ctx, find, &found); err != nil {
		return err
	}
	if len(found.Coordinators) != 1 {
		return fmt.Errorf("coordinator of %s: %d answers to one key", group, len(found.Coordinators))
	}
	coordinator := found.Coordinators[0]
	if err := kerrors.ErrorCode(coordinator.ErrorCode); err != nil {
		return fmt.Errorf("coordinator of %s: %w", group, err)
	}
	coordConn, err := dial(coordinator.Host, coordinator.Port)
	if err != nil {
		return err
	}
	defer coordConn.Close()
	fetch := kafkamsg.NewOffsetFetchRequest()
	fetchGroup := kafkamsg.MakeOffsetFetchRequestGroup()
	fetchGroup.GroupID, fetchGroup.Topics = group, nil // null: every topic (Make's default is none)
	fetch.Groups = append(fetch.Groups, fetchGroup)
	var fetched kafkamsg.OffsetFetchResponse
	if err := coordConn.Do(ctx, fetch, &fetched); err != nil {
		return err
	}
	if len(fetched.Groups) != 1 {
		return fmt.Errorf("offsets of %s: %d answers to one group", group, len(fetched.Groups))
	}
	if err := kerrors.ErrorCode(fetched.Groups[0].ErrorCode); err != nil {
		return fmt.Errorf("offsets of %s: %w", group, err)
	}

	meta := kafkamsg.NewMetadataRequest()
	meta.Topics = nil // null: every topic
	var metaResp kafkamsg.MetadataResponse
	if err := conn.Do(ctx, meta, &metaResp); err != nil {
		return err
	}
	names := map[runtime.UUID]string{}
	leaders := map[string]int32{} // "topic/partition" to node id
	for _, t := range metaResp.Topics {
		names[t.TopicID] = t.Name.Value
		for _, p := range t.Partitions {
			leaders[fmt.Sprintf("%s/%d", t.Name.Value, p.PartitionIndex)] = p.LeaderID
		}
	}

	var lags []*partitionLag
	byLeader := map[int32]*kafkamsg.ListOffsetsRequest{}
	for _, t := range fetched.Groups[0].Topics {
		name := t.Name // up to v9; from v10 the id
		if name == "" {
			name = names[t.TopicID]
		}
		for _, p := range t.Partitions {
			if err := kerrors.ErrorCode(p.ErrorCode); err != nil {
				return fmt.Errorf("offset of %s/%d: %w", name, p.PartitionIndex, err)
			}
			lags = append(lags, &partitionLag{topic: name, partition: p.PartitionIndex, committed: p.CommittedOffset})
			leader, ok := leaders[fmt.Sprintf("%s/%d", name, p.PartitionIndex)]
			if !ok {
				return fmt.Errorf("no leader for %s/%d", name, p.PartitionIndex)
			}
			list := byLeader[leader]
			if list == nil {
				list = kafkamsg.NewListOffsetsRequest()
				list.ReplicaID = runtime.ConsumerReplicaID // not New's 0, a broker's id
				byLeader[leader] = list
			}
			topic := kafkamsg.MakeListOffsetsRequestListOffsetsTopic()
			topic.Name = name
			partition := kafkamsg.MakeListOffsetsRequestListOffsetsPartition()
			partition.PartitionIndex, partition.Timestamp = p.PartitionIndex, runtime.LatestTimestamp
			topic.Partitions = append(topic.Partitions, partition)
			list.Topics = append(list.Topics, topic)
		}
	}

	latest := map[string]int64{}
	for _, b := range metaResp.Brokers {
		list := byLeader[b.NodeID]
		if list == nil {
			continue
		}
		leaderConn, err := dial(b.Host, b.Port)
		if err != nil {
			return err
		}
		var listed kafkamsg.ListOffsetsResponse
		err = leaderConn.Do(ctx, list, &listed)
		leaderConn.Close()
		if err != nil {
			return err
		}
		for _, t := range listed.Topics {
			for _, p := range t.Partitions {
				if err := kerrors.ErrorCode(p.ErrorCode); err != nil {
					return fmt.Errorf("latest offset of %s/%d: %w", t.Name, p.PartitionIndex, err)
				}
				latest[fmt.Sprintf("%s/%d", t.Name, p.PartitionIndex)] = p.Offset
			}
		}
	}
	sort.Slice(lags, func(i, j int) bool {
		a, b := lags[i], lags[j]
		return a.topic < b.topic || a.topic == b.topic && a.partition < b.partition
	})
	for _, l := range lags {
		l.latest = latest[fmt.Sprintf("%s/%d", l.topic, l.partition)]
		fmt.Fprintf(out, "%s/%d committed %d latest %d lag %d\n", l.topic, l.partition, l.committed, l.latest, l.latest-l.committed)
	}
	return nil
}
