package records

import (
	"encoding/binary"
	"strconv"
)

// ControlType is the type of a control record, from its key (Kafka's
// ControlRecordType).
type ControlType int16

// Kafka's control record types.
const (
	ControlUnknown        ControlType = -1
	ControlAbort          ControlType = 0 // transaction aborted
	ControlCommit         ControlType = 1 // transaction committed
	ControlLeaderChange   ControlType = 2 // KRaft
	ControlSnapshotHeader ControlType = 3 // KRaft
	ControlSnapshotFooter ControlType = 4 // KRaft
	ControlKRaftVersion   ControlType = 5 // KRaft
	ControlKRaftVoters    ControlType = 6 // KRaft
)

// String returns Java's name for t ("COMMIT", ...).
func (t ControlType) String() string {
	switch t {
	case ControlAbort:
		return "ABORT"
	case ControlCommit:
		return "COMMIT"
	case ControlLeaderChange:
		return "LEADER_CHANGE"
	case ControlSnapshotHeader:
		return "SNAPSHOT_HEADER"
	case ControlSnapshotFooter:
		return "SNAPSHOT_FOOTER"
	case ControlKRaftVersion:
		return "KRAFT_VERSION"
	case ControlKRaftVoters:
		return "KRAFT_VOTERS"
	}
	return "UNKNOWN"
}

// ParseControlKey reads the key of a control record: a version (int16)
// then the type (int16). Types this package does not know, and keys of a
// later version, read as ControlUnknown, as Java does; a key shorter than
// four bytes is an error.
func ParseControlKey(key []byte) (ControlType, error) {
	if len(key) < 4 {
		return ControlUnknown, &Error{Pos: -1, BaseOffset: -1, Record: -1, RecordPos: -1, Field: "control key",
			Err: ErrInvalidRecord, Detail: strconv.Itoa(len(key)) + " bytes, fewer than 4"}
	}
	t := ControlType(binary.BigEndian.Uint16(key[2:]))
	if t < ControlAbort || t > ControlKRaftVoters {
		return ControlUnknown, nil
	}
	return t, nil
}

// ControlType reads r's key as a control record key (see ParseControlKey);
// call it for records of control batches.
func (r *Record) ControlType() (ControlType, error) { return ParseControlKey(r.Key) }

// ParseEndTxnMarker reads the value of a commit or abort control record: a
// version (int16) then the coordinator epoch (int32); later versions may
// add bytes after those, which are ignored as Java does.
func ParseEndTxnMarker(value []byte) (coordinatorEpoch int32, err error) {
	if len(value) < 6 {
		return 0, &Error{Pos: -1, BaseOffset: -1, Record: -1, RecordPos: -1, Field: "end transaction marker",
			Err: ErrInvalidRecord, Detail: strconv.Itoa(len(value)) + " bytes, fewer than 6"}
	}
	return int32(binary.BigEndian.Uint32(value[2:])), nil
}

// AppendControlKey appends the key of a control record of type t
// (version 0).
func AppendControlKey(dst []byte, t ControlType) []byte {
	return binary.BigEndian.AppendUint16(append(dst, 0, 0), uint16(t))
}

// AppendEndTxnMarkerValue appends the value of a commit or abort marker
// (version 0).
func AppendEndTxnMarkerValue(dst []byte, coordinatorEpoch int32) []byte {
	return binary.BigEndian.AppendUint32(append(dst, 0, 0), uint32(coordinatorEpoch))
}

// EndTxnMarker is a transaction's commit or abort marker, as the
// transaction coordinator has a partition leader write it.
type EndTxnMarker struct {
	BaseOffset           int64 // usually 0: the log assigns it
	PartitionLeaderEpoch int32
	ProducerID           int64
	ProducerEpoch        int16
	Commit               bool // commit, else abort
	CoordinatorEpoch     int32
	Timestamp            int64
}

// AppendEndTxnMarker appends m as a control batch of one record
// (transactional, control, no base sequence), as Java's
// MemoryRecords.withEndTransactionMarker writes it.
func AppendEndTxnMarker(dst []byte, m EndTxnMarker) []byte {
	t := ControlAbort
	if m.Commit {
		t = ControlCommit
	}
	var key [4]byte
	var value [6]byte
	AppendControlKey(key[:0], t)
	AppendEndTxnMarkerValue(value[:0], m.CoordinatorEpoch)
	h := batchHeader{
		baseOffset: m.BaseOffset, leaderEpoch: m.PartitionLeaderEpoch,
		attributes: AttrTransactional | AttrControl, baseTimestamp: m.Timestamp, maxTimestamp: m.Timestamp,
		producerID: m.ProducerID, producerEpoch: m.ProducerEpoch, baseSequence: NoSequence, count: 1,
	}
	at := len(dst)
	dst = h.append(dst)
	dst = appendRecord(dst, 0, 0, key[:], value[:], nil)
	finishV2(dst[at:])
	return dst
}
