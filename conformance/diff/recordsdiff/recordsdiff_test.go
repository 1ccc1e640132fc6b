package recordsdiff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/kafkagen/kafkagen/records"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blobsPerCase is how many random blobs (of one to four batches) each
// direction and codec writes.
const blobsPerCase = 60

var v2Codecs = []records.Compression{records.CompressionNone, records.CompressionGzip,
	records.CompressionSnappy, records.CompressionLZ4, records.CompressionZstd}

// counts are the summary line's numbers.
var counts struct {
	batches, records                                     int
	franzToOurs, oursToFranz, saramaToOurs, oursToSarama int
	legacySaramaToOurs, legacyOursToSarama               int
	mismatches                                           int
}

func TestMain(m *testing.M) {
	code := m.Run()
	fmt.Printf("recordsdiff: batches=%d records=%d codecs=%d franz->ours=%d ours->franz=%d sarama->ours=%d ours->sarama=%d legacy-sarama->ours=%d legacy-ours->sarama=%d mismatches=%d\n",
		counts.batches, counts.records, len(v2Codecs), counts.franzToOurs, counts.oursToFranz, counts.saramaToOurs, counts.oursToSarama,
		counts.legacySaramaToOurs, counts.legacyOursToSarama, counts.mismatches)
	os.Exit(code)
}

func randBlob(rng *rand.Rand, c records.Compression) []batchView {
	var views []batchView
	for n := 1 + rng.IntN(4); n > 0; n-- {
		v := randV2(rng, c)
		if rng.IntN(10) == 0 {
			v.LogAppendTime = true
			v.MaxTimestamp = v.BaseTimestamp + 5000
		}
		views = append(views, v)
	}
	return views
}

func tally(views []batchView) {
	counts.batches += len(views)
	for _, v := range views {
		counts.records += len(v.Records)
	}
}

// direction is one library writing and another reading.
type direction struct {
	name    string
	write   func([]batchView) ([]byte, error)
	read    func([]byte) ([]batchView, error)
	counter *int
}

func TestV2(t *testing.T) {
	franzWrite := func(v []batchView) ([]byte, error) { return writeFranz(v), nil }
	dirs := []direction{
		{"franz->ours", franzWrite, readOurs, &counts.franzToOurs},
		{"ours->franz", writeOurs, readFranz, &counts.oursToFranz},
		{"sarama->ours", writeSarama, readOurs, &counts.saramaToOurs},
		{"ours->sarama", writeOurs, readSarama, &counts.oursToSarama},
	}
	for di, d := range dirs {
		for _, c := range v2Codecs {
			t.Run(d.name+"/"+c.String(), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(di), uint64(c)))
				for i := 0; i < blobsPerCase; i++ {
					views := randBlob(rng, c)
					if !roundTrip(t, d, views, i) {
						return
					}
				}
			})
		}
	}
}

func TestLegacy(t *testing.T) {
	dirs := []direction{
		{"sarama->ours", writeSarama, readOurs, &counts.legacySaramaToOurs},
		{"ours->sarama", writeOurs, readSarama, &counts.legacyOursToSarama},
	}
	for di, d := range dirs {
		for _, magic := range []int8{records.MagicV0, records.MagicV1} {
			for _, c := range v2Codecs[:4] {
				if magic == records.MagicV0 && c == records.CompressionLZ4 && d.name == "ours->sarama" {
					// Java (and so this package) writes magic 0 lz4 frames
					// with Kafka's old header checksum (KAFKA-3160), which
					// sarama's strict frame reader rejects.
					continue
				}
				t.Run(fmt.Sprintf("%s/v%d/%s", d.name, magic, c), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(di)+10, uint64(c)+uint64(magic)*8))
					for i := 0; i < blobsPerCase; i++ {
						var views []batchView
						next := rng.Int64N(1 << 40)
						for n := 1 + rng.IntN(4); n > 0; n-- {
							v := randLegacy(rng, magic, c, next)
							next += int64(len(v.Records))
							views = append(views, v)
						}
						if !roundTrip(t, d, views, i) {
							return
						}
					}
				})
			}
		}
	}
}

// roundTrip writes views with one side and reads them with the other,
// counting a mismatch when the read differs from what was written or
// either side fails.
func roundTrip(t *testing.T, d direction, views []batchView, i int) bool {
	blob, err := d.write(views)
	require.NoError(t, err, "blob %d: writing", i)
	got, err := d.read(blob)
	if !assert.NoError(t, err, "blob %d", i) || !assert.Equal(t, views, got, "blob %d", i) {
		counts.mismatches++
		return false
	}
	*d.counter += len(views)
	tally(views)
	return true
}
