package records

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// rebuildLegacy writes a legacy message again from what was read of it.
func rebuildLegacy(t testing.TB, dst []byte, rb readBack) []byte {
	t.Helper()
	b := &rb.batch
	if b.Compression() == CompressionNone {
		r := rb.records[0]
		out, err := AppendMessage(dst, b.Magic, r.Offset, r.Timestamp, r.Attributes, r.Key, r.Value)
		require.NoError(t, err)
		return out
	}
	m := NewMessageSetBuilder(b.Magic, b.Compression())
	m.Reset()
	if b.TimestampType() == LogAppendTime {
		m.LogAppendTime = b.MaxTimestamp
	}
	for _, r := range rb.records {
		require.NoError(t, m.Append(r.Offset, r.Timestamp, r.Key, r.Value))
	}
	out, err := m.AppendTo(dst)
	require.NoError(t, err)
	return out
}
