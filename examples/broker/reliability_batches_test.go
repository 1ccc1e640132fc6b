//go:build reliability

package main

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The rows of record batches Kafka's LogValidator refuses, each sent after
// one good record: the expected code, the log end offset unchanged, and a
// Fetch that still reads the good record. Built with validate_test.go's
// helpers, which TestProduceValidation sends to an in-process broker.
func batchRows(t *testing.T) []row {
	now := time.Now().UnixMilli()
	tests := []struct {
		name    string
		version int16
		blob    []byte
		code    *kerrors.Error
	}{
		{"lastOffsetDelta -100 (CRC valid)", 9, resealed(recordsOf(t, 1, now), putInt32(testLastOffsetDeltaPos, -100)), kerrors.InvalidRecord},
		{"lastOffsetDelta 0 with 10 records", 9, resealed(recordsOf(t, 10, now), putInt32(testLastOffsetDeltaPos, 0)), kerrors.InvalidRecord},
		{"lastOffsetDelta 2^31-1", 9, resealed(recordsOf(t, 3, now), putInt32(testLastOffsetDeltaPos, math.MaxInt32)), kerrors.InvalidRecord},
		{"offset deltas 0,0,0", 9, resealed(recordsOf(t, 3, now), zeroOffsetDeltas), kerrors.InvalidRecord},
		{"a control batch from a client", 9, clientControlBatch(t, now), kerrors.InvalidRecord},
		{"magic 0, 1 and 2 mixed in one Produce v2", 2, concat(legacyMessage(t, 0, "m0"), legacyMessage(t, 1, "m1"), recordsOf(t, 1, now)), kerrors.InvalidRecord},
	}
	var rows []row
	for _, tt := range tests {
		rows = append(rows, row{
			name: "batch: " + tt.name,
			setup: func(t *testing.T, b *rowBroker) {
				cl := dialClient(t, b.addr, "validation")
				createTopic(t, cl, "v", 1)
				good := recordsOf(t, 1, now)
				require.Equal(t, codeNone, produce(t, cl, 9, "v", 0, good).ErrorCode)
			},
			attack: func(t *testing.T, b *rowBroker) attackResult {
				got := produce(t, dialClient(t, b.addr, "attacker"), tt.version, "v", 0, tt.blob)
				assert.Equal(t, tt.code.Code, got.ErrorCode, "%v", got.ErrorMessage)
				assert.Equal(t, int64(-1), got.BaseOffset)
				return attackResult{closed: "0 (answered; Kafka keeps the connection)",
					note: fmt.Sprintf(", answered %s", codeName(got.ErrorCode))}
			},
			check: func(t *testing.T, b *rowBroker) {
				f := fetchOne(t, dialClient(t, b.addr, "checker"), 12, fetchReq(12, "v", runtime.UUID{}, 0, 0))
				assert.Equal(t, int64(1), f.HighWatermark, "the log end offset did not move")
				got := readRecords(t, f.Records)
				require.Len(t, got, 1, "nothing was stored")
				assert.Equal(t, "a", string(got[0].Value))
			},
		})
	}
	return rows
}

// codeName is an error code as Kafka names it, with the number.
func codeName(code int16) string {
	if e, ok := kerrors.LookupError(code); ok {
		return fmt.Sprintf("%s (%d)", e.Name, code)
	}
	return fmt.Sprintf("code %d", code)
}

// killRow is kill_test.go's run on the suite's binary: producers at
// acks=-1 on a broker with -data-dir, SIGKILL, restart on the same folder,
// and every acknowledged record found at its offset.
func killRow(t *testing.T, binary string) {
	acked, found := kill9Load(t, binary)
	if t.Failed() {
		t.Logf("reliability: kill -9 under load with -data-dir, restart FAILED: see the errors above")
		return
	}
	t.Logf("reliability: kill -9 under load with -data-dir, restart peak-rss-over-baseline=n/a after=n/a served=%d/%d closed=n/a (every acknowledged record found at its offset after the restart; %d records in the log, the rest were in flight)",
		acked, acked, found)
}
