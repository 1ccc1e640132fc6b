package recordsdiff

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/kafkagen/kafkagen/records"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// franzCodecs are kgo's compressor per codec, as a franz-go producer
// configured with that codec uses.
var franzCodecs = map[records.Compression]kgo.Compressor{}

func franzCompressor(c records.Compression) kgo.Compressor {
	if z, ok := franzCodecs[c]; ok {
		return z
	}
	codec := map[records.Compression]kgo.CompressionCodec{
		records.CompressionGzip: kgo.GzipCompression(), records.CompressionSnappy: kgo.SnappyCompression(),
		records.CompressionLZ4: kgo.Lz4Compression(), records.CompressionZstd: kgo.ZstdCompression(),
	}[c]
	z, err := kgo.DefaultCompressor(codec)
	if err != nil {
		panic(err)
	}
	franzCodecs[c] = z
	return z
}

var franzDecompressor = kgo.DefaultDecompressor()

// writeFranz writes v2 views as franz-go's producer does: kmsg.Record per
// record with its length, the records compressed by kgo, kmsg.RecordBatch
// around them, then the CRC over the bytes from the attributes on.
func writeFranz(views []batchView) []byte {
	var blob []byte
	for _, v := range views {
		var raw []byte
		for _, r := range v.Records {
			rec := kmsg.Record{TimestampDelta64: r.Timestamp - v.BaseTimestamp, OffsetDelta: int32(r.Offset - v.BaseOffset), Key: r.Key, Value: r.Value}
			for _, h := range r.Headers {
				rec.Headers = append(rec.Headers, kmsg.Header{Key: h.Key, Value: h.Value})
			}
			rec.Length = int32(len(rec.AppendTo(nil)) - 1) // the body after a one-byte zero length
			raw = rec.AppendTo(raw)
		}
		attrs := int16(v.Codec)
		if v.Codec != records.CompressionNone {
			var buf bytes.Buffer
			out, codec := franzCompressor(v.Codec).Compress(&buf, raw)
			if int(codec) != int(v.Codec) {
				panic(fmt.Sprintf("kgo compressed with %d, not %d", codec, v.Codec))
			}
			raw = append([]byte{}, out...)
		}
		if v.LogAppendTime {
			attrs |= 0x08
		}
		if v.Transactional {
			attrs |= 0x10
		}
		b := kmsg.RecordBatch{
			FirstOffset: v.BaseOffset, Length: int32(49 + len(raw)), PartitionLeaderEpoch: v.LeaderEpoch, Magic: 2,
			Attributes: attrs, LastOffsetDelta: v.LastOffsetDelta, FirstTimestamp: v.BaseTimestamp, MaxTimestamp: v.MaxTimestamp,
			ProducerID: v.ProducerID, ProducerEpoch: v.ProducerEpoch, FirstSequence: v.BaseSequence,
			NumRecords: int32(len(v.Records)), Records: raw,
		}
		at := len(blob)
		blob = b.AppendTo(blob)
		binary.BigEndian.PutUint32(blob[at+17:], crc32.Checksum(blob[at+21:], castagnoli))
	}
	return blob
}

// readFranz reads v2 batches as franz-go's consumer does:
// kmsg.RecordBatch.ReadFrom, the CRC checked, kgo's decompressor, then
// kmsg.Record.ReadFrom per record.
func readFranz(blob []byte) ([]batchView, error) {
	var out []batchView
	for len(blob) > 0 {
		if len(blob) < 61 {
			return nil, fmt.Errorf("franz: %d bytes left", len(blob))
		}
		n := 12 + int(binary.BigEndian.Uint32(blob[8:]))
		var b kmsg.RecordBatch
		if err := b.ReadFrom(blob[:n]); err != nil {
			return nil, err
		}
		if uint32(b.CRC) != crc32.Checksum(blob[21:n], castagnoli) {
			return nil, fmt.Errorf("franz: crc mismatch")
		}
		blob = blob[n:]
		raw, err := franzDecompressor.Decompress(b.Records, kgo.CompressionCodecType(b.Attributes&7))
		if err != nil {
			return nil, err
		}
		v := batchView{
			Magic: b.Magic, BaseOffset: b.FirstOffset, LastOffsetDelta: b.LastOffsetDelta, LeaderEpoch: b.PartitionLeaderEpoch,
			Codec: records.Compression(b.Attributes & 7), LogAppendTime: b.Attributes&0x08 != 0, Transactional: b.Attributes&0x10 != 0,
			BaseTimestamp: b.FirstTimestamp, MaxTimestamp: b.MaxTimestamp,
			ProducerID: b.ProducerID, ProducerEpoch: b.ProducerEpoch, BaseSequence: b.FirstSequence,
		}
		for i := int32(0); i < b.NumRecords; i++ {
			length, k := binary.Varint(raw)
			if k <= 0 || int(length)+k > len(raw) {
				return nil, fmt.Errorf("franz: record %d length", i)
			}
			var rec kmsg.Record
			if err := rec.ReadFrom(raw[:k+int(length)]); err != nil {
				return nil, err
			}
			raw = raw[k+int(length):]
			rv := recordView{Offset: b.FirstOffset + int64(rec.OffsetDelta), Timestamp: b.FirstTimestamp + rec.TimestampDelta64,
				Key: clone(rec.Key), Value: clone(rec.Value)}
			for _, h := range rec.Headers {
				rv.Headers = append(rv.Headers, headerView{h.Key, clone(h.Value)})
			}
			v.Records = append(v.Records, rv)
		}
		if len(raw) != 0 {
			return nil, fmt.Errorf("franz: %d bytes after the records", len(raw))
		}
		out = append(out, v)
	}
	return out, nil
}
