package kerrors

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorCode(t *testing.T) {
	assert.NoError(t, ErrorCode(0), "NONE is no error")

	err := ErrorCode(6)
	require.ErrorIs(t, err, NotLeaderOrFollower)
	assert.False(t, errors.Is(err, UnknownServerError))
	assert.True(t, IsRetriable(err))
	wrapped := fmt.Errorf("produce to orders-2: %w", err)
	require.ErrorIs(t, wrapped, NotLeaderOrFollower)
	assert.True(t, IsRetriable(wrapped))
	assert.False(t, IsRetriable(ErrorCode(36)), "TOPIC_ALREADY_EXISTS")
	assert.False(t, IsRetriable(errors.New("not kafka")))

	assert.EqualError(t, ErrorCode(3), "UNKNOWN_TOPIC_OR_PARTITION (kafka error 3): This server does not host this topic-partition.")
}

// A code missing from the table keeps its number and counts as Kafka's
// UNKNOWN_SERVER_ERROR, as Errors.forCode makes it.
func TestErrorCodeUnknown(t *testing.T) {
	for _, code := range []int16{130, 999, -2, 32767} {
		err := ErrorCode(code)
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, code, e.Code)
		assert.Equal(t, "UNKNOWN_ERROR_CODE", e.Name)
		require.ErrorIs(t, err, UnknownServerError)
		assert.False(t, errors.Is(err, NotLeaderOrFollower))
		assert.False(t, e.Retriable)
	}
	assert.False(t, errors.Is(UnknownServerError, NotLeaderOrFollower))
}

// The table: every code of Kafka 4.0 from -1 to 129 except NONE, once,
// with a unique name and a message, reachable by code and by name.
func TestErrorTable(t *testing.T) {
	all := Errors()
	require.Len(t, all, 130)
	names := map[string]bool{}
	for i, e := range all {
		want := int16(i)
		if i == 0 {
			want = -1
		}
		assert.Equal(t, want, e.Code, "codes run -1, 1, 2, ... 129 without gaps")
		assert.NotEmpty(t, e.Message, e.Name)
		assert.False(t, names[e.Name], "duplicate name %s", e.Name)
		names[e.Name] = true
		byName, ok := ErrorByName(e.Name)
		require.True(t, ok)
		assert.Same(t, e, byName)
		byCode, ok := LookupError(e.Code)
		require.True(t, ok)
		assert.Same(t, e, byCode)
		assert.Same(t, e, ErrorCode(e.Code))
	}
	_, ok := LookupError(0)
	assert.False(t, ok)
	_, ok = ErrorByName("NONE")
	assert.False(t, ok)
}

// The retriable flags follow Kafka's exception classes: the direct
// subclasses of RetriableException and of InvalidMetadataException.
func TestErrorRetriable(t *testing.T) {
	var retriable []string
	for _, e := range Errors() {
		if e.Retriable {
			retriable = append(retriable, e.Name)
		}
	}
	assert.Equal(t, []string{
		"CORRUPT_MESSAGE", "UNKNOWN_TOPIC_OR_PARTITION", "LEADER_NOT_AVAILABLE", "NOT_LEADER_OR_FOLLOWER",
		"REQUEST_TIMED_OUT", "REPLICA_NOT_AVAILABLE", "NETWORK_EXCEPTION", "COORDINATOR_LOAD_IN_PROGRESS",
		"COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR", "NOT_ENOUGH_REPLICAS", "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
		"NOT_CONTROLLER", "CONCURRENT_TRANSACTIONS", "KAFKA_STORAGE_ERROR", "FETCH_SESSION_ID_NOT_FOUND",
		"INVALID_FETCH_SESSION_EPOCH", "LISTENER_NOT_FOUND", "FENCED_LEADER_EPOCH", "UNKNOWN_LEADER_EPOCH",
		"OFFSET_NOT_AVAILABLE", "PREFERRED_LEADER_NOT_AVAILABLE", "ELIGIBLE_LEADERS_NOT_AVAILABLE",
		"ELECTION_NOT_NEEDED", "UNSTABLE_OFFSET_COMMIT", "THROTTLING_QUOTA_EXCEEDED", "UNKNOWN_TOPIC_ID",
		"INCONSISTENT_TOPIC_ID", "FETCH_SESSION_TOPIC_ID_ERROR", "SHARE_SESSION_NOT_FOUND",
		"INVALID_SHARE_SESSION_EPOCH",
	}, retriable)
}
