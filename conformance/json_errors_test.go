//go:build corpus

package conformance

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/runtime"
)

// fetchV12 is a FetchRequest v12 as AppendJSON writes it; the cases below
// change one thing in it.
const fetchV12 = `{"replicaId":-1,"maxWaitMs":0,"minBytes":0,"maxBytes":2147483647,"isolationLevel":0,"sessionId":0,"sessionEpoch":-1,` +
	`"topics":[{"topic":"t","partitions":[{"partition":0,"currentLeaderEpoch":0,"fetchOffset":0,"lastFetchedEpoch":0,"logStartOffset":0,"partitionMaxBytes":0}]}],` +
	`"forgottenTopicsData":[],"rackId":""}`

const txnV0 = `{"transactionalId":"w","producerId":0,"producerEpoch":-71,"groupId":"h"}`

// TestJSONErrors: bad JSON is refused with the sentinel, the field path and
// the byte offset of the value at fault, exactly.
func TestJSONErrors(t *testing.T) {
	cases := []struct {
		name    string
		message string
		version int16
		in      string
		err     error
		want    string // the whole error text
	}{
		{"wrong type", "AddOffsetsToTxnRequest", 0, strings.Replace(txnV0, `"w"`, `5`, 1), runtime.ErrJSONType,
			"kafka unmarshal JSON AddOffsetsToTxnRequest.transactionalId v0 at byte 19: wrong JSON value for the field: expected a string, found a number"},
		{"unknown field", "FetchRequest", 12, strings.Replace(fetchV12, `"partition":0,`, `"partition":0,"bogus":1,`, 1), runtime.ErrUnknownField,
			"kafka unmarshal JSON FetchRequest.topics[0].partitions[0].bogus v12 at byte 168: unknown field"},
		{"field absent at the version", "FetchRequest", 12, strings.Replace(fetchV12, `"topic":"t",`, `"topic":"t","topicId":"AAAAAAAAAAAAAAAAAAAAAA",`, 1), runtime.ErrFieldVersion,
			"kafka unmarshal JSON FetchRequest.topics[0].topicId v12 at byte 139: field not present at this version: not supported in version 12"},
		{"field removed at the version", "FetchRequest", 13, fetchV12, runtime.ErrFieldVersion,
			"kafka unmarshal JSON FetchRequest.topics[0].topic v13 at byte 127: field not present at this version: not supported in version 13"},
		{"string over 32767 bytes", "AddOffsetsToTxnRequest", 0, strings.Replace(txnV0, `"h"`, `"`+strings.Repeat("h", 32768)+`"`, 1), runtime.ErrStringTooLong,
			"kafka unmarshal JSON AddOffsetsToTxnRequest.groupId v0 at byte 68: string longer than 32767 bytes: 32768 bytes"},
		{"missing field", "AddOffsetsToTxnRequest", 0, strings.Replace(txnV0, `,"groupId":"h"`, ``, 1), runtime.ErrMissingField,
			"kafka unmarshal JSON AddOffsetsToTxnRequest.groupId v0 at byte 57: missing field: mandatory in version 0"},
		{"null where not nullable", "AddOffsetsToTxnRequest", 0, strings.Replace(txnV0, `"w"`, `null`, 1), runtime.ErrNull,
			"kafka unmarshal JSON AddOffsetsToTxnRequest.transactionalId v0 at byte 19: null in a non-nullable field"},
		{"int16 out of range", "AddOffsetsToTxnRequest", 0, strings.Replace(txnV0, `-71`, `40000`, 1), runtime.ErrJSONType,
			"kafka unmarshal JSON AddOffsetsToTxnRequest.producerEpoch v0 at byte 54: wrong JSON value for the field: 40000 does not fit in int16"},
		{"fraction in an integer", "AddOffsetsToTxnRequest", 0, strings.Replace(txnV0, `"producerId":0`, `"producerId":0.5`, 1), runtime.ErrJSONType,
			"kafka unmarshal JSON AddOffsetsToTxnRequest.producerId v0 at byte 36: wrong JSON value for the field: expected an integer (int64), found 0.5"},
		{"duplicate key", "AddOffsetsToTxnRequest", 0, strings.Replace(txnV0, `"groupId":"h"`, `"groupId":"h","groupId":"i"`, 1), runtime.ErrDuplicateField,
			"kafka unmarshal JSON AddOffsetsToTxnRequest.groupId v0 at byte 72: duplicate field"},
		{"records by size only", "ProduceRequest", 3, `{"transactionalId":null,"acks":0,"timeoutMs":0,"topicData":[{"name":"t","partitionData":[{"index":0,"recordsSizeInBytes":3}]}]}`, runtime.ErrUnknownField,
			"kafka unmarshal JSON ProduceRequest.topicData[0].partitionData[0].recordsSizeInBytes v3 at byte 100: unknown field: records written as their size only cannot be read back"},
		{"bad base64", "ProduceRequest", 3, `{"transactionalId":null,"acks":0,"timeoutMs":0,"topicData":[{"name":"t","partitionData":[{"index":0,"records":"!!"}]}]}`, runtime.ErrJSONType,
			"kafka unmarshal JSON ProduceRequest.topicData[0].partitionData[0].records v3 at byte 110: wrong JSON value for the field: invalid base64: illegal base64 data at input byte 0"},
		{"bad uuid", "FetchRequest", 13, strings.Replace(fetchV12, `"topic":"t"`, `"topicId":"AAAA"`, 1), runtime.ErrJSONType,
			"kafka unmarshal JSON FetchRequest.topics[0].topicId v13 at byte 137: wrong JSON value for the field: invalid uuid \"AAAA\": want 22 base64url characters"},
		{"unknown tags without tag sections", "AddOffsetsToTxnRequest", 0, strings.Replace(txnV0, `}`, `,"_unknownTaggedFields":[]}`, 1), runtime.ErrFieldVersion,
			"kafka unmarshal JSON AddOffsetsToTxnRequest._unknownTaggedFields v0 at byte 72: field not present at this version: not supported in version 0"},
		{"unknown tags in a struct only versions without tag sections have", "StopReplicaRequest", 0, `{"controllerId":0,"controllerEpoch":0,"deletePartitions":false,"ungroupedPartitions":[{"topicName":"t","partitionIndex":0,"_unknownTaggedFields":[]}]}`, runtime.ErrFieldVersion,
			"kafka unmarshal JSON StopReplicaRequest.ungroupedPartitions[0]._unknownTaggedFields v0 at byte 122: field not present at this version: not supported in version 0"},
		{"unknown tag that the struct defines", "FetchRequest", 12, strings.Replace(fetchV12, `"rackId":""}`, `"rackId":"","_unknownTaggedFields":[{"tag":1,"data":""}]}`, 1), runtime.ErrTagOrder,
			"kafka unmarshal JSON FetchRequest._unknownTaggedFields[0] v12 at byte 334: invalid unknown tagged field list: tag 1 comes after tag 1"},
		{"not an object", "FetchRequest", 12, `[]`, runtime.ErrJSONType,
			"kafka unmarshal JSON FetchRequest v12 at byte 0: wrong JSON value for the field: expected an object, found an array"},
		{"trailing comma", "AddOffsetsToTxnRequest", 0, strings.Replace(txnV0, `}`, `,}`, 1), runtime.ErrJSONSyntax,
			"kafka unmarshal JSON AddOffsetsToTxnRequest v0 at byte 72: invalid JSON: expected an object key, found '}'"},
		{"data after the message", "AddOffsetsToTxnRequest", 0, txnV0 + ` {}`, runtime.ErrJSONSyntax,
			"kafka unmarshal JSON AddOffsetsToTxnRequest v0 at byte 73: invalid JSON: data after the message"},
		{"unsupported version", "AddOffsetsToTxnRequest", 5, txnV0, runtime.ErrUnsupportedVersion,
			"kafka unmarshal JSON AddOffsetsToTxnRequest v5: unsupported version: valid versions are 0 to 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := clients.NewByName(c.message).(runtime.JSONMessage)
			err := m.DecodeJSON([]byte(c.in), c.version)
			require.Error(t, err)
			assert.ErrorIs(t, err, c.err)
			assert.Equal(t, c.want, err.Error())
		})
	}
}

// TestJSONAcceptsWhatJavaWould: white space, key order, escapes, tagged
// fields left out (their default), Java's NaN and infinities.
func TestJSONAcceptsWhatJavaWould(t *testing.T) {
	m := clients.NewFetchRequest()
	in := "{\n  \"rackId\" : \"r\\u00e9\", " + fetchV12[1:len(fetchV12)-len(`,"rackId":""}`)] + "\n}\n"
	require.NoError(t, m.DecodeJSON([]byte(in), 12))
	assert.Equal(t, "ré", m.RackID)
	assert.Equal(t, "t", m.Topics[0].Topic)
	assert.Equal(t, int32(0), m.Topics[0].Partitions[0].LastFetchedEpoch)
	assert.False(t, m.ClusterID.Valid, "the tagged ClusterId, left out, holds its default: null")

	q := clients.NewDescribeClientQuotasResponse()
	require.NoError(t, q.DecodeJSON([]byte(`{"throttleTimeMs":0,"errorCode":0,"errorMessage":null,"entries":[{"entity":[],"values":[{"key":"a","value":"NaN"},{"key":"b","value":"-Infinity"},{"key":"c","value":1e308}]}]}`), 1))
	out, err := q.AppendJSON(nil, 1, runtime.JSONOptions{})
	require.NoError(t, err)
	assert.Equal(t, `{"throttleTimeMs":0,"errorCode":0,"errorMessage":null,"entries":[{"entity":[],"values":[{"key":"a","value":"NaN"},{"key":"b","value":"-Infinity"},{"key":"c","value":1.0E308}]}]}`, string(out))
	assert.Equal(t, uint64(0x7ff8000000000000), math.Float64bits(q.Entries[0].Values[0].Value),
		"NaN reads as Java's Double.NaN, so the wire bytes a Java peer wrote come back")
}

// TestJSONWithEncodingJSON: MarshalJSON and UnmarshalJSON use the latest
// version; runtime.VersionedJSON any other.
func TestJSONWithEncodingJSON(t *testing.T) {
	m := clients.NewAddOffsetsToTxnRequest()
	m.TransactionalID, m.GroupID = "tx", "g"
	out, err := json.Marshal(m)
	require.NoError(t, err)
	assert.Equal(t, `{"transactionalId":"tx","producerId":0,"producerEpoch":0,"groupId":"g"}`, string(out))

	back := clients.NewAddOffsetsToTxnRequest()
	require.NoError(t, json.Unmarshal(out, back))
	assert.Equal(t, m, back)

	req := clients.NewFetchRequest()
	out, err = json.Marshal(runtime.VersionedJSON{Message: req, Version: 3})
	require.NoError(t, err)
	assert.Equal(t, `{"replicaId":-1,"maxWaitMs":0,"minBytes":0,"maxBytes":2147483647,"topics":[]}`, string(out))
	require.NoError(t, json.Unmarshal(out, &runtime.VersionedJSON{Message: req, Version: 3}))
	assert.Error(t, json.Unmarshal(out, &runtime.VersionedJSON{Message: req, Version: 2}), "maxBytes is v3+")
}

// TestJSONMarshalErrors: what Java's converter refuses to write, and null
// where the version has no null.
func TestJSONMarshalErrors(t *testing.T) {
	f := clients.NewFetchRequest()
	f.Topics = []clients.FetchRequestFetchTopic{{Topic: "t", Partitions: []clients.FetchRequestFetchPartition{{LastFetchedEpoch: 0}}}}
	_, err := f.AppendJSON(nil, 4, runtime.JSONOptions{})
	assert.ErrorIs(t, err, runtime.ErrNonDefault)
	assert.EqualError(t, err, "kafka marshal JSON FetchRequest.topics[0].partitions[0].lastFetchedEpoch v4: non-default value in a field absent from this version: attempted to write a non-default lastFetchedEpoch at version 4: LastFetchedEpoch has versions 12+; New and Make set its default, -1")

	p := clients.NewProduceRequest()
	p.TransactionalID = runtime.NullString{}
	_, err = p.AppendJSON(nil, 3, runtime.JSONOptions{})
	assert.NoError(t, err, "transactionalId is nullable at v3")

	a := clients.NewAddOffsetsToTxnRequest()
	a.UnknownTags = runtime.Tags{{Tag: 9, Data: []byte{1}}}
	_, err = a.AppendJSON(nil, 2, runtime.JSONOptions{})
	assert.ErrorIs(t, err, runtime.ErrTaggedFields)
	out, err := a.AppendJSON(nil, 2, runtime.JSONRequestLog)
	require.NoError(t, err, "unknown tags are left out in the request-log form")
	assert.NotContains(t, string(out), runtime.UnknownTagsKey)
	out, err = a.AppendJSON(nil, 3, runtime.JSONOptions{})
	require.NoError(t, err)
	assert.Contains(t, string(out), `"_unknownTaggedFields":[{"tag":9,"data":"AQ=="}]`)
}

// TestAppendJSONAllocatesNothing: into a buffer with room, AppendJSON
// allocates nothing, even for a FetchResponse with records.
func TestAppendJSONAllocatesNothing(t *testing.T) {
	m := clients.NewFetchResponse()
	m.Responses = []clients.FetchResponseFetchableTopicResponse{{Partitions: []clients.FetchResponsePartitionData{{Records: make([]byte, 100)}}}}
	buf := make([]byte, 0, 4096)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := m.AppendJSON(buf[:0], 16, runtime.JSONOptions{}); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs)
}
