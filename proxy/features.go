package proxy

import (
	"encoding/binary"
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
)

// Feature levels that change what clients send: a client that sees the
// level (ApiVersions v3+, SupportedFeatures and FinalizedFeatures) speaks
// the protocol of that level, so the proxy advertises a level only when it
// advertises the versions the level needs. transaction.version 2 (KIP-890
// part 2) has clients skip AddPartitionsToTxn and AddOffsetsToTxn, which
// only Produce v12, TxnOffsetCommit v5 and EndTxn v5 make up for: a client
// told level 2 while Produce stops at v11 gets INVALID_TXN_STATE.
var featureNeeds = []struct {
	feature string
	level   int16
	needs   []versionNeed
}{
	{"transaction.version", 2, []versionNeed{{0, 12}, {28, 5}, {26, 5}}},
}

// versionNeed is an api key and the lowest version a feature level needs.
type versionNeed struct{ key, version int16 }

// featureLimit is the highest level of a feature the proxy advertises,
// given the highest version it advertises of each api; ok false for a
// feature the table does not know, which is passed on as it is.
func featureLimit(feature string, advertised map[int16]int16) (limit int16, ok bool) {
	for _, f := range featureNeeds {
		if f.feature != feature {
			continue
		}
		met := true
		for _, n := range f.needs {
			if v, ok := advertised[n.key]; !ok || v < n.version {
				met = false
			}
		}
		if !met {
			return f.level - 1, true
		}
		limit, ok = f.level, true
	}
	return limit, ok
}

// clampFeatures lowers in place the max levels of the features in rest,
// the body of an ApiVersionsResponse at version after its api list (the
// throttle time, then from v3 the tag section holding SupportedFeatures,
// tag 0, and FinalizedFeatures, tag 2). Levels are int16s, so nothing moves.
func clampFeatures(rest []byte, version int16, advertised map[int16]int16) error {
	if version < 3 {
		return nil
	}
	off := 4 // ThrottleTimeMs
	n, k := binary.Uvarint(rest[min(off, len(rest)):])
	if k <= 0 {
		return fmt.Errorf("ApiVersionsResponse v%d: the tag count: %w", version, runtime.ErrMalformedVarint)
	}
	off += k
	for range n {
		tag, k1 := binary.Uvarint(rest[off:])
		size, k2 := binary.Uvarint(rest[off+max(k1, 0):])
		if k1 <= 0 || k2 <= 0 || size > uint64(len(rest)-off-k1-k2) {
			return fmt.Errorf("ApiVersionsResponse v%d: a tagged field at byte %d: %w", version, off, runtime.ErrInvalidLength)
		}
		off += k1 + k2
		data := rest[off : off+int(size)]
		off += int(size)
		var err error
		switch tag {
		case 0: // SupportedFeatures: name, min, max
			err = clampFeatureList(data, 2, advertised)
		case 2: // FinalizedFeatures: name, max level, min level
			err = clampFeatureList(data, 0, advertised)
		}
		if err != nil {
			return fmt.Errorf("ApiVersionsResponse v%d, tag %d: %w", version, tag, err)
		}
	}
	return nil
}

// clampFeatureList lowers the levels of the known features of a compact
// array of {name, int16, int16, tags}, whose max is the int16 at maxAt (0 or
// 2) after the name, and whose min is the other: a cluster finalized at
// transaction.version 2 still serves clients of level 1, so min goes down
// with max.
func clampFeatureList(b []byte, maxAt int, advertised map[int16]int16) error {
	count, k := binary.Uvarint(b)
	if k <= 0 {
		return runtime.ErrMalformedVarint
	}
	off := k
	for i := uint64(1); i < count; i++ {
		l, k := binary.Uvarint(b[off:])
		if k <= 0 || l == 0 || l-1 > uint64(len(b)-off-k) || len(b)-off-k-int(l-1) < 4 {
			return runtime.ErrInvalidLength
		}
		name := string(b[off+k : off+k+int(l-1)])
		levels := b[off+k+int(l-1):]
		if limit, ok := featureLimit(name, advertised); ok {
			if hi := int16(binary.BigEndian.Uint16(levels[maxAt:])); hi > limit {
				binary.BigEndian.PutUint16(levels[maxAt:], uint16(limit))
			}
			if lo := int16(binary.BigEndian.Uint16(levels[2-maxAt:])); lo > limit {
				binary.BigEndian.PutUint16(levels[2-maxAt:], uint16(limit))
			}
		}
		end, err := skipTags(b, off+k+int(l-1)+4)
		if err != nil {
			return err
		}
		off = end
	}
	return nil
}
