package bridge

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Shaped like generated messages: the adapters' tests with real generated
// messages are in examples/proxy (bridge_test.go), whose package is made
// from Kafka's specs by go generate.
type testPartition struct {
	Index     int32
	ErrorCode int16
}

type testTopic struct {
	Name       string
	Partitions []testPartition
	ErrorCode  int16
}

type testResponse struct {
	Topics    []testTopic
	ErrorCode int16
}

func TestMapErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		key     int16
		version int16
		want    int16
	}{
		{"Fetch v5 gets NOT_LEADER_OR_FOLLOWER for a storage error", apiFetch, 5, codeNotLeaderOrFollower},
		{"Fetch v0 too", apiFetch, 0, codeNotLeaderOrFollower},
		{"Fetch v6 knows KAFKA_STORAGE_ERROR", apiFetch, 6, codeKafkaStorageError},
		{"Produce has no rule", apiProduce, 0, codeKafkaStorageError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &testResponse{ErrorCode: codeKafkaStorageError, Topics: []testTopic{{Name: "t", ErrorCode: codeKafkaStorageError,
				Partitions: []testPartition{{0, codeKafkaStorageError}, {1, codeCorruptMessage}}}}}
			mapErrors(tc.key, structOf(resp), tc.version)
			assert.Equal(t, tc.want, resp.ErrorCode)
			assert.Equal(t, tc.want, resp.Topics[0].ErrorCode)
			assert.Equal(t, tc.want, resp.Topics[0].Partitions[0].ErrorCode, "nested in arrays")
			assert.Equal(t, codeCorruptMessage, resp.Topics[0].Partitions[1].ErrorCode, "other codes kept")
		})
	}
}

func TestFieldsNameWhatIsMissing(t *testing.T) {
	var f fields
	resp := &testResponse{Topics: []testTopic{{Name: "t"}}}
	var names []string
	f.each(structOf(resp), "Topics", func(v reflect.Value) { names = append(names, f.str(v, "Name")) })
	require.NoError(t, f.err)
	assert.Equal(t, []string{"t"}, names)
	f.each(structOf(resp), "TopicData", func(reflect.Value) { t.Fatal("no such field: nothing to visit") })
	assert.EqualError(t, f.err, "bridge: testResponse has no field TopicData (not a kafkagen-generated message?)")
}
