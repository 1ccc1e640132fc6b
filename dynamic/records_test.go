package dynamic

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/corpus"
)

// decodeJSONNumbers parses JSON keeping numbers as json.Number.
func decodeJSONNumbers(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v), "%s", b)
	return v
}

// TestRecordsWriterJavaView: the batches of Kafka's 100 Java-written record
// sets (every magic and codec, control and transactional batches) print
// with exactly the values of Java's own view of them (java-records-dev),
// key for key; only Java's class name and isValid are not printed.
func TestRecordsWriterJavaView(t *testing.T) {
	path := filepath.Join(corpus.VectorDir(), "java-records-dev.jsonl")
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("SKIP: no Java record vectors at %s (set KAFKA_VECTORS_DIR)", path)
	}
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	var w RecordsWriter
	sets, batches := 0, 0
	for sc.Scan() {
		var set struct {
			ID      int               `json:"id"`
			Hex     string            `json:"hex"`
			Batches []json.RawMessage `json:"batches"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &set))
		blob, err := hex.DecodeString(set.Hex)
		require.NoError(t, err)
		got := decodeJSONNumbers(t, w.Append(nil, blob)).(map[string]any)
		require.NotContains(t, got, "error", "set %d", set.ID)
		gotBatches := got["batches"].([]any)
		require.Len(t, gotBatches, len(set.Batches), "set %d", set.ID)
		for i, raw := range set.Batches {
			want := decodeJSONNumbers(t, raw).(map[string]any)
			delete(want, "class")
			delete(want, "isValid")
			assert.Equal(t, want, gotBatches[i], "set %d batch %d", set.ID, i)
			batches++
		}
		sets++
	}
	require.NoError(t, sc.Err())
	require.Equal(t, 100, sets)
	t.Logf("java record sets: %d sets, %d batches as Java sees them", sets, batches)
}

// Bytes that are not batches keep everything: the batches read before, the
// error, and the unread bytes; a batch cut short at the end is its tail.
func TestRecordsWriterKeepsWhatItCannotRead(t *testing.T) {
	var w RecordsWriter
	bad, _ := hex.DecodeString("0000000000000007" + "0000000c" + "ffffffff" + "07" + "00000000000000") // magic 7
	got := decodeJSONNumbers(t, w.Append(nil, bad)).(map[string]any)
	assert.Empty(t, got["batches"])
	require.Contains(t, got, "error")
	assert.Contains(t, got["error"], "records: batch at byte 0 (base offset 7): length: invalid length")
	unread, err := base64.StdEncoding.DecodeString(got["unread"].(string))
	require.NoError(t, err)
	assert.Equal(t, bad, unread)

	// A good batch, then the bad bytes: the batch is printed, the rest kept.
	good, _ := hex.DecodeString(javaSet0)
	got = decodeJSONNumbers(t, w.Append(nil, append(append([]byte(nil), good...), bad...))).(map[string]any)
	assert.Len(t, got["batches"], 1)
	assert.Contains(t, got["error"], "batch at byte 181")
	unread, err = base64.StdEncoding.DecodeString(got["unread"].(string))
	require.NoError(t, err)
	assert.Equal(t, bad, unread)

	blob := good[:70] // cut in the first record
	got = decodeJSONNumbers(t, w.Append(nil, blob)).(map[string]any)
	assert.Empty(t, got["batches"])
	assert.NotContains(t, got, "error")
	assert.Equal(t, base64.StdEncoding.EncodeToString(blob), got["partialTail"])
}

// javaSet0 is set 0 of java-records-dev.jsonl: one uncompressed v2 batch of
// one record, 181 bytes.
const javaSet0 = "0000000000000000000000a9ffffffff022b2626bb0000000000000000018bf4208b630000018bf4208b63ffffffffffffffffffffffffffff00000001ec010000001a636f7264206261746368206f66c401bf85d83b02a71dd183804db252badfc192ba6a8a9bd0f0bf07388a1104d59ebf30eb6af66242a51f8fe4823623b0c9e2393801476cf28e100795d65958834aa679714f7b6be1c4943a0b1d55b70fcdfca191edc4527e3530aa804a3000e67f7239c100"
