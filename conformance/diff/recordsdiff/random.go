package recordsdiff

import (
	"math/rand/v2"

	"github.com/kafkagen/kafkagen/records"
)

const text = "kafka record batch offset leader epoch producer sequence topic partition "

// randBytes is nil, empty, or up to max bytes, half text and half noise.
func randBytes(rng *rand.Rand, max int, nullable bool) []byte {
	switch p := rng.IntN(10); {
	case p == 0 && nullable:
		return nil
	case p == 1:
		return []byte{}
	}
	b := make([]byte, 1+rng.IntN(max))
	for i := range b {
		if rng.IntN(2) == 0 {
			b[i] = text[(i+rng.IntN(3))%len(text)]
		} else {
			b[i] = byte(rng.Uint32())
		}
	}
	return b
}

// randV2 is a random v2 batch of codec c. LogAppendTime and gaps in the
// offsets are left to the caller: not every library writes them.
func randV2(rng *rand.Rand, c records.Compression) batchView {
	v := batchView{
		Magic: records.MagicV2, BaseOffset: rng.Int64N(1 << 40), LeaderEpoch: -1, Codec: c,
		ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1,
	}
	if rng.IntN(2) == 0 {
		v.LeaderEpoch = rng.Int32N(1000)
	}
	if rng.IntN(2) == 0 {
		v.ProducerID, v.ProducerEpoch, v.BaseSequence = rng.Int64N(1<<40), int16(rng.IntN(100)), rng.Int32N(1<<30)
		v.Transactional = rng.IntN(3) == 0
	}
	n := 1 + rng.IntN(30)
	base := 1700000000000 + rng.Int64N(1<<30)
	v.BaseTimestamp, v.MaxTimestamp = base, base
	for i := 0; i < n; i++ {
		ts := base
		if i > 0 {
			ts = base + rng.Int64N(100000) - 1000
		}
		v.MaxTimestamp = max(v.MaxTimestamp, ts)
		r := recordView{Offset: v.BaseOffset + int64(i), Timestamp: ts, Key: randBytes(rng, 40, true), Value: randBytes(rng, 400, true)}
		for h := rng.IntN(4); h > 0; h-- {
			r.Headers = append(r.Headers, headerView{Key: string(randBytes(rng, 12, false)), Value: randBytes(rng, 20, true)})
		}
		v.Records = append(v.Records, r)
	}
	v.LastOffsetDelta = int32(n - 1)
	return v
}

// randLegacy is a random legacy message (codec none) or wrapper.
func randLegacy(rng *rand.Rand, magic int8, c records.Compression, base int64) batchView {
	v := batchView{
		Magic: magic, BaseOffset: base, LeaderEpoch: -1, Codec: c,
		ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1,
		BaseTimestamp: records.NoTimestamp, MaxTimestamp: records.NoTimestamp,
	}
	n := 1
	if c != records.CompressionNone {
		n = 1 + rng.IntN(20)
	}
	for i := 0; i < n; i++ {
		ts := records.NoTimestamp
		if magic == records.MagicV1 {
			ts = 1700000000000 + rng.Int64N(1<<30)
		}
		v.MaxTimestamp = max(v.MaxTimestamp, ts)
		v.Records = append(v.Records, recordView{Offset: base + int64(i), Timestamp: ts,
			Key: randBytes(rng, 40, true), Value: randBytes(rng, 400, true)})
	}
	if magic == records.MagicV1 {
		v.BaseTimestamp = v.MaxTimestamp
		if n == 1 {
			v.BaseTimestamp = v.Records[0].Timestamp
		}
	}
	v.LastOffsetDelta = int32(n - 1)
	return v
}
