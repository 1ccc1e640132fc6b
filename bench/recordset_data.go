package bench

import (
	"github.com/kafkagen/kafkagen/records"
)

// The record-set benchmarks (recordset_test.go) read and build the records
// of a Fetch response of about 1 MiB: rsBatches batches of rsRecords
// records, each with a 16-byte key, an rsValue-byte value and one header.
const (
	rsBatches = 100
	rsRecords = 100
	rsValue   = 80
)

// rsRecord is one record's content, shared by every library's encoder.
// hkeyString is hkey as the string kmsg's Header takes, made once here so
// that kmsg's encoding does not pay a conversion per record.
type rsRecord struct {
	key, value, hkey, hvalue []byte
	hkeyString               string
	tsDelta                  int64
}

// rsContent is the records of one batch.
func rsContent(batch int) []rsRecord {
	out := make([]rsRecord, rsRecords)
	for i := range out {
		v := make([]byte, rsValue)
		for j := range v {
			v[j] = "kafka record batch offset leader epoch "[(i+j+batch)%39]
		}
		out[i] = rsRecord{
			key:        []byte("user-0000000" + string(rune('a'+i%26)) + "0000"),
			value:      v,
			hkey:       []byte("trace-id"),
			hkeyString: "trace-id",
			hvalue:     []byte("0123456789abcdef"),
			tsDelta:    int64(i * 3),
		}
	}
	return out
}

// rsBlob is the uncompressed Fetch records: every batch built by the
// records package.
func rsBlob() []byte {
	var blob []byte
	bb := records.NewBatchBuilder()
	for b := 0; b < rsBatches; b++ {
		bb.Reset()
		bb.BaseOffset = int64(b * rsRecords)
		bb.ProducerID, bb.ProducerEpoch, bb.BaseSequence = 1000, 1, int32(b*rsRecords)
		for i, r := range rsContent(b) {
			bb.Append(1700000000000+r.tsDelta+int64(i), r.key, r.value, records.Header{Key: r.hkey, Value: r.hvalue})
		}
		var err error
		if blob, err = bb.AppendTo(blob); err != nil {
			panic(err)
		}
	}
	return blob
}
