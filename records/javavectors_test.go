package records

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/stretchr/testify/require"
)

// javaSet is one line of java-records-dev.jsonl: a record set Kafka's
// MemoryRecordsBuilder wrote, with Java's view of it read back.
type javaSet struct {
	ID          int          `json:"id"`
	Hex         string       `json:"hex"`
	Magic       any          `json:"magic"`
	Compression any          `json:"compression"`
	Batches     []javaBatch  `json:"batches"`
	Built       []javaLayout `json:"built"`
}

type javaLayout struct {
	Kind        string `json:"kind"`
	Compression string `json:"compression"`
	Magic       int8   `json:"magic"`
}

type javaBatch struct {
	Magic                int8         `json:"magic"`
	BaseOffset           int64        `json:"baseOffset"`
	LastOffset           int64        `json:"lastOffset"`
	SizeInBytes          int          `json:"sizeInBytes"`
	CountOrNull          *int32       `json:"countOrNull"`
	PartitionLeaderEpoch int32        `json:"partitionLeaderEpoch"`
	CRC                  uint32       `json:"crc"`
	IsValid              bool         `json:"isValid"`
	BaseTimestamp        *int64       `json:"baseTimestamp"`
	Attributes           int          `json:"attributes"`
	Compression          string       `json:"compression"`
	ProducerID           int64        `json:"producerId"`
	ProducerEpoch        int16        `json:"producerEpoch"`
	BaseSequence         int32        `json:"baseSequence"`
	LastSequence         int32        `json:"lastSequence"`
	IsTransactional      bool         `json:"isTransactional"`
	IsControl            bool         `json:"isControl"`
	TimestampType        string       `json:"timestampType"`
	MaxTimestamp         int64        `json:"maxTimestamp"`
	DeleteHorizonMs      *int64       `json:"deleteHorizonMs"`
	Records              []javaRecord `json:"records"`
}

type javaRecord struct {
	Offset      int64        `json:"offset"`
	Timestamp   int64        `json:"timestamp"`
	Sequence    int32        `json:"sequence"`
	SizeInBytes int          `json:"sizeInBytes"`
	Key         *string      `json:"key"`
	Value       *string      `json:"value"`
	Headers     []javaHeader `json:"headers"`
	Control     *javaControl `json:"control"`
}

type javaHeader struct {
	Key   string  `json:"key"`
	Value *string `json:"value"`
}

type javaControl struct {
	Type             string `json:"type"`
	TypeID           int16  `json:"typeId"`
	CoordinatorEpoch *int32 `json:"coordinatorEpoch"`
}

// loadJavaSets reads the Java record sets, skipping the test when the
// vectors are absent.
func loadJavaSets(t testing.TB) []javaSet {
	t.Helper()
	path := filepath.Join(corpus.VectorDir(), "java-records-dev.jsonl")
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("no Java record vectors at %s (set KAFKA_VECTORS_DIR)", path)
	}
	require.NoError(t, err)
	defer f.Close()
	var sets []javaSet
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var s javaSet
		require.NoError(t, json.Unmarshal(sc.Bytes(), &s))
		sets = append(sets, s)
	}
	require.NoError(t, sc.Err())
	return sets
}

func (s *javaSet) bytes(t testing.TB) []byte {
	b, err := hex.DecodeString(s.Hex)
	require.NoError(t, err)
	return b
}

// nullableBase64 decodes Java's base64-or-null.
func nullableBase64(t testing.TB, s *string) []byte {
	if s == nil {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(*s)
	require.NoError(t, err)
	return b
}
