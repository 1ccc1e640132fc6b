//go:build k411

package kmsgdiff

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkagen/kafkagen/conformance/gen/k411groupcoordinator"
	"github.com/kafkagen/kafkagen/conformance/gen/k411transactioncoordinator"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/internal/roundtrip"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// kmsgRecord is what kmsg's coordinator record types have: each reads and
// writes a record key or value of the coordinator's topic whole, starting
// with its int16 prefix (a key's record type, a value's version).
type kmsgRecord interface {
	AppendTo([]byte) []byte
	ReadFrom([]byte) error
}

// coordinatorRecord is one of Kafka 4.1.1's coordinator record specs that
// kmsg v1.15.1 has a type for (kmsg has none for the consumer-, share- and
// streams-group records or the share coordinator's).
type coordinatorRecord struct {
	spec       string
	recordType int16
	key        bool
	folder     int // index in corpus.ReleaseDirs
	newOurs    func(int16) runtime.Message
	newKmsg    func() kmsgRecord
}

var k411CoordinatorRecords = []coordinatorRecord{
	{"LegacyOffsetCommitKey", 0, true, 1, k411groupcoordinator.NewCoordinatorKey, func() kmsgRecord { return new(kmsg.OffsetCommitKey) }},
	{"LegacyOffsetCommitValue", 0, false, 1, k411groupcoordinator.NewCoordinatorValue, func() kmsgRecord { return new(kmsg.OffsetCommitValue) }},
	{"OffsetCommitKey", 1, true, 1, k411groupcoordinator.NewCoordinatorKey, func() kmsgRecord { return new(kmsg.OffsetCommitKey) }},
	{"OffsetCommitValue", 1, false, 1, k411groupcoordinator.NewCoordinatorValue, func() kmsgRecord { return new(kmsg.OffsetCommitValue) }},
	{"GroupMetadataKey", 2, true, 1, k411groupcoordinator.NewCoordinatorKey, func() kmsgRecord { return new(kmsg.GroupMetadataKey) }},
	{"GroupMetadataValue", 2, false, 1, k411groupcoordinator.NewCoordinatorValue, func() kmsgRecord { return new(kmsg.GroupMetadataValue) }},
	{"TransactionLogKey", 0, true, 3, k411transactioncoordinator.NewCoordinatorKey, func() kmsgRecord { return new(kmsg.TxnMetadataKey) }},
	{"TransactionLogValue", 0, false, 3, k411transactioncoordinator.NewCoordinatorValue, func() kmsgRecord { return new(kmsg.TxnMetadataValue) }},
}

// TestKmsgCoordinatorRecords411 compares kafkagen's 4.1.1 coordinator
// records with kmsg's types for them, every version of each, both ways as
// the API differential does. On the topic a key is its record type and its
// version-0 body, a value its version and its body (docs/protocol.md,
// "Coordinator records"); kmsg reads and writes the prefix with the body,
// kafkagen the body alone.
func TestKmsgCoordinatorRecords411(t *testing.T) {
	specs := map[string]*schema.Spec{}
	for _, folder := range []int{1, 3} {
		loaded, err := schema.LoadDir(filepath.Join(corpus.ReleasesDir(), corpus.ReleaseDirs[folder].Path))
		require.NoError(t, err)
		for _, s := range loaded {
			specs[s.Name] = s
		}
	}
	pairs, messages := 0, 0
	var mismatches []string
	for _, rec := range k411CoordinatorRecords {
		spec := specs[rec.spec]
		require.NotNil(t, spec, rec.spec)
		require.Equal(t, rec.recordType, spec.APIKey, rec.spec)
		require.Equal(t, rec.spec, rec.newOurs(rec.recordType).(runtime.Versioned).SpecName(), "the registry's record type %d", rec.recordType)
		newOurs := func() runtime.Message { return rec.newOurs(rec.recordType) }
		for _, v := range wiregen.Versions(spec) {
			pairs++
			prefix := binary.BigEndian.AppendUint16(nil, uint16(v))
			if rec.key {
				prefix = binary.BigEndian.AppendUint16(nil, uint16(rec.recordType))
			}
			rng := rand.New(rand.NewPCG(uint64(rec.recordType)<<17|uint64(v)<<1|b2u(rec.key), 0x6b6d7367))
			for i := 0; i < *samplesPerPair; i++ {
				opts := wiregen.Options{UnknownTags: i%2 == 1, LongStrings: i%10 == 9, MaxArray: 1 + i%3}
				src := wiregen.Encode(spec, v, rng, opts)
				seed := rng.Uint64()
				for _, err := range []error{
					recordOursToKmsg(newOurs, rec.newKmsg, prefix, src, v),
					recordKmsgToOurs(newOurs, rec.newKmsg, prefix, src, v, rand.New(rand.NewPCG(seed, 1))),
				} {
					if err != nil {
						mismatches = append(mismatches, fmt.Sprintf("%s v%d sample %d: %v", rec.spec, v, i, err))
						continue
					}
					messages++
				}
			}
		}
	}
	for i, m := range mismatches {
		if i == 30 {
			t.Errorf("... and %d more mismatches", len(mismatches)-i)
			break
		}
		t.Error(m)
	}
	fmt.Printf("kmsg-4.1.1-records: records=%d pairs=%d messages=%d mismatches=%d\n", len(k411CoordinatorRecords), pairs, messages, len(mismatches))
}

// recordOursToKmsg: src round-trips through ours, and kmsg reads it behind
// its prefix and writes both back byte for byte.
func recordOursToKmsg(newOurs func() runtime.Message, newKmsg func() kmsgRecord, prefix, src []byte, v int16) (err error) {
	defer catch(&err)
	if err := roundtrip.Check(newOurs, nil, src, v); err != nil {
		return fmt.Errorf("ours does not round-trip the canonical encoding %x: %w", src, err)
	}
	whole := append(append([]byte(nil), prefix...), src...)
	km := newKmsg()
	if err := km.ReadFrom(whole); err != nil {
		return fmt.Errorf("kmsg ReadFrom(%x): %w", whole, err)
	}
	if out := km.AppendTo(nil); !bytes.Equal(out, whole) {
		return fmt.Errorf("kmsg re-encodes ours' bytes differently:\n ours %x\n kmsg %x", whole, out)
	}
	return nil
}

// recordKmsgToOurs: kmsg reads prefix and src, its record is mutated at
// random (its Version, the prefix, left alone), and what kmsg then writes
// keeps the prefix and decodes with ours, consuming every byte, and
// re-encodes identically.
func recordKmsgToOurs(newOurs func() runtime.Message, newKmsg func() kmsgRecord, prefix, src []byte, v int16, rng *rand.Rand) (err error) {
	defer catch(&err)
	km := newKmsg()
	if err := km.ReadFrom(append(append([]byte(nil), prefix...), src...)); err != nil {
		return fmt.Errorf("kmsg ReadFrom: %w", err)
	}
	mutate(reflect.ValueOf(km).Elem(), rng, true)
	kb := km.AppendTo(nil)
	if !bytes.HasPrefix(kb, prefix) {
		return fmt.Errorf("kmsg wrote %x, not behind the prefix %x", kb, prefix)
	}
	if err := roundtrip.Check(newOurs, nil, kb[len(prefix):], v); err != nil {
		return fmt.Errorf("kmsg-encoded %x (%+v): %w", kb, km, err)
	}
	return nil
}
