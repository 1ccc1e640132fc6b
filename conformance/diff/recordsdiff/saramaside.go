package recordsdiff

import (
	"fmt"
	"time"

	"github.com/IBM/sarama"
	"github.com/kafkagen/kafkagen/conformance/diff/saramashim"
	"github.com/kafkagen/kafkagen/records"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// writeSarama writes views with sarama's own encoders: RecordBatch for
// v2, MessageSet for legacy messages and wrappers.
func writeSarama(views []batchView) ([]byte, error) {
	var blob []byte
	for _, v := range views {
		var enc any
		if v.Magic == records.MagicV2 {
			b := &sarama.RecordBatch{
				FirstOffset: v.BaseOffset, PartitionLeaderEpoch: v.LeaderEpoch, Version: 2,
				Codec: sarama.CompressionCodec(v.Codec), CompressionLevel: sarama.CompressionLevelDefault,
				LogAppendTime: v.LogAppendTime, LastOffsetDelta: v.LastOffsetDelta,
				FirstTimestamp: time.UnixMilli(v.BaseTimestamp), MaxTimestamp: time.UnixMilli(v.MaxTimestamp),
				ProducerID: v.ProducerID, ProducerEpoch: v.ProducerEpoch, FirstSequence: v.BaseSequence, IsTransactional: v.Transactional,
			}
			for _, r := range v.Records {
				rec := &sarama.Record{TimestampDelta: time.Duration(r.Timestamp-v.BaseTimestamp) * time.Millisecond,
					OffsetDelta: r.Offset - v.BaseOffset, Key: r.Key, Value: r.Value}
				for _, h := range r.Headers {
					rec.Headers = append(rec.Headers, &sarama.RecordHeader{Key: []byte(h.Key), Value: h.Value})
				}
				b.Records = append(b.Records, rec)
			}
			enc = b
		} else {
			mb, err := saramaMessage(v)
			if err != nil {
				return nil, err
			}
			enc = &sarama.MessageSet{Messages: []*sarama.MessageBlock{mb}}
		}
		out, err := saramashim.Encode(saramashim.Encoder(enc))
		if err != nil {
			return nil, err
		}
		blob = append(blob, out...)
	}
	return blob, nil
}

func saramaTime(ms int64) time.Time {
	if ms < 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// saramaMessage is a legacy view as a sarama message block: one message,
// or a wrapper whose inner offsets are relative in magic 1 and absolute in
// magic 0, its own offset the last record's. As sarama's producer does, the
// inner set is encoded into the wrapper's Value, which sarama compresses.
func saramaMessage(v batchView) (*sarama.MessageBlock, error) {
	if v.Codec == records.CompressionNone {
		r := v.Records[0]
		return &sarama.MessageBlock{Offset: r.Offset, Msg: &sarama.Message{Key: r.Key, Value: r.Value, Version: v.Magic, Timestamp: saramaTime(r.Timestamp)}}, nil
	}
	set := &sarama.MessageSet{}
	for i, r := range v.Records {
		off := r.Offset
		if v.Magic == records.MagicV1 {
			off = int64(i)
		}
		set.Messages = append(set.Messages, &sarama.MessageBlock{Offset: off,
			Msg: &sarama.Message{Key: r.Key, Value: r.Value, Version: v.Magic, Timestamp: saramaTime(r.Timestamp)}})
	}
	payload, err := saramashim.Encode(saramashim.Encoder(set))
	if err != nil {
		return nil, err
	}
	last := v.Records[len(v.Records)-1].Offset
	return &sarama.MessageBlock{Offset: last, Msg: &sarama.Message{Codec: sarama.CompressionCodec(v.Codec),
		CompressionLevel: sarama.CompressionLevelDefault, Version: v.Magic, Timestamp: saramaTime(v.MaxTimestamp), Value: payload, Set: set}}, nil
}

// readSarama reads a blob with sarama's Fetch response decoder (the blob
// as one partition's records in a v4 response, written by kmsg).
func readSarama(blob []byte) ([]batchView, error) {
	resp := kmsg.NewFetchResponse()
	resp.Version = 4
	part := kmsg.NewFetchResponseTopicPartition()
	part.RecordBatches = blob
	topic := kmsg.NewFetchResponseTopic()
	topic.Topic = "t"
	topic.Partitions = append(topic.Partitions, part)
	resp.Topics = append(resp.Topics, topic)
	sr := &sarama.FetchResponse{}
	if err := saramashim.Decode(resp.AppendTo(nil), saramashim.Decoder(sr), 4); err != nil {
		return nil, err
	}
	block := sr.GetBlock("t", 0)
	if block == nil {
		return nil, fmt.Errorf("sarama: no block")
	}
	var out []batchView
	for _, rs := range block.RecordsSet {
		switch {
		case rs.RecordBatch != nil:
			if rs.RecordBatch.PartialTrailingRecord {
				return nil, fmt.Errorf("sarama: partial batch")
			}
			out = append(out, saramaBatchView(rs.RecordBatch))
		case rs.MsgSet != nil:
			for _, mb := range rs.MsgSet.Messages {
				out = append(out, saramaLegacyView(mb))
			}
		}
	}
	return out, nil
}

func saramaBatchView(b *sarama.RecordBatch) batchView {
	v := batchView{
		Magic: b.Version, BaseOffset: b.FirstOffset, LastOffsetDelta: b.LastOffsetDelta, LeaderEpoch: b.PartitionLeaderEpoch,
		Codec: records.Compression(b.Codec), LogAppendTime: b.LogAppendTime, Transactional: b.IsTransactional,
		BaseTimestamp: b.FirstTimestamp.UnixMilli(), MaxTimestamp: b.MaxTimestamp.UnixMilli(),
		ProducerID: b.ProducerID, ProducerEpoch: b.ProducerEpoch, BaseSequence: b.FirstSequence,
	}
	for _, r := range b.Records {
		rv := recordView{Offset: b.FirstOffset + r.OffsetDelta, Timestamp: v.BaseTimestamp + r.TimestampDelta.Milliseconds(),
			Key: clone(r.Key), Value: clone(r.Value)}
		for _, h := range r.Headers {
			rv.Headers = append(rv.Headers, headerView{string(h.Key), clone(h.Value)})
		}
		v.Records = append(v.Records, rv)
	}
	return v
}

func saramaMillis(m *sarama.Message) int64 {
	if m.Version == 0 {
		return records.NoTimestamp
	}
	return m.Timestamp.UnixMilli()
}

// saramaLegacyView converts a sarama message block; inner offsets of a
// magic 1 wrapper are made absolute by Kafka's rule (the wrapper holds the
// last one), as sarama's consumer does.
func saramaLegacyView(mb *sarama.MessageBlock) batchView {
	m := mb.Msg
	v := batchView{Magic: m.Version, BaseOffset: mb.Offset, LeaderEpoch: -1, Codec: records.Compression(m.Codec),
		ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1,
		BaseTimestamp: saramaMillis(m), MaxTimestamp: saramaMillis(m)}
	if m.Set == nil {
		v.Records = []recordView{{Offset: mb.Offset, Timestamp: saramaMillis(m), Key: clone(m.Key), Value: clone(m.Value)}}
		return v
	}
	inner := m.Set.Messages
	shift := int64(0)
	if m.Version == records.MagicV1 && len(inner) > 0 {
		shift = mb.Offset - inner[len(inner)-1].Offset
	}
	for _, ib := range inner {
		v.Records = append(v.Records, recordView{Offset: shift + ib.Offset, Timestamp: saramaMillis(ib.Msg),
			Key: clone(ib.Msg.Key), Value: clone(ib.Msg.Value)})
	}
	v.BaseOffset = v.Records[0].Offset
	v.LastOffsetDelta = int32(mb.Offset - v.BaseOffset)
	return v
}
