//go:build corpus

package conformance

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/conformance/gen/clientstest"
	"github.com/kafkagen/kafkagen/conformance/gen/groupcoordinator"
	"github.com/kafkagen/kafkagen/conformance/gen/metadata"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJavaGolden reproduces ../shared/kafka-vectors/java-golden.tsv, the
// known-answer vectors written and read by Apache Kafka's Java classes
// (docs/protocol.md, known-answer vectors: row n of the file is Vn).
func TestJavaGolden(t *testing.T) {
	rows := loadGoldenRows(t)
	require.NotEmpty(t, rows)

	used := map[string]bool{}
	var writes, errRows, reads int
	for _, row := range rows {
		t.Run(row.ID(), func(t *testing.T) {
			t.Logf("%s %q v%d", row.ID(), row.Desc, row.Version)
			if row.Read {
				c, ok := goldenReads[row.Desc]
				if !assert.True(t, ok, "no goldenReads entry for read row %s %q", row.ID(), row.Desc) {
					return
				}
				used["R:"+row.Desc] = true
				reads++
				checkGoldenRead(t, row, c)
				return
			}
			c, ok := goldenWrites[row.Desc]
			if !assert.True(t, ok, "no goldenWrites entry for write row %s %q", row.ID(), row.Desc) {
				return
			}
			used["W:"+row.Desc] = true
			if row.ErrClass != "" {
				errRows++
				checkGoldenWriteError(t, row, c)
			} else {
				writes++
				checkGoldenWrite(t, row, c)
			}
		})
	}
	// Every table entry must match a row, so a typo in a key cannot hide a row.
	for desc := range goldenWrites {
		assert.True(t, used["W:"+desc], "goldenWrites entry %q matches no row of java-golden.tsv", desc)
	}
	for desc := range goldenReads {
		assert.True(t, used["R:"+desc], "goldenReads entry %q matches no row of java-golden.tsv", desc)
	}
	assert.Equal(t, len(rows), writes+errRows+reads, "every row must be checked")
	t.Logf("java-golden: %d write rows reproduced, %d error rows, %d read rows", writes, errRows, reads)
}

// goldenWrite builds the message a B.1 row describes.
type goldenWrite struct {
	typ   string // spec name of the message
	build func() runtime.Message
	// errField is, for an error row, the expected *runtime.Error.Field (dotted
	// spec field path, compared case-insensitively). Java names the field in
	// "Attempted to write a non-default X" but not in a NullPointerException.
	errField string
}

// goldenRead says how to decode a B.2 row.
type goldenRead struct {
	typ string
	// errField is, for an error outcome, the expected *runtime.Error.Field
	// (case-insensitive); "" when Java names no field.
	errField string
	// check makes extra assertions on a successfully decoded message.
	check func(t *testing.T, m runtime.Message)
}

func checkGoldenWrite(t *testing.T, row goldenRow, c goldenWrite) {
	m := c.build()
	checkGoldenType(t, m, c.typ)
	want := goldenHex(t, row.Hex)
	require.Equal(t, row.Length, len(want), "TSV length column vs hex")

	got, err := m.AppendTo(nil, row.Version)
	if assert.NoError(t, err, "AppendTo v%d", row.Version) {
		assert.Equal(t, row.Hex, hexOf(got), "AppendTo v%d bytes (want Java's)", row.Version)
	}
	assert.Equal(t, row.Length, m.Size(row.Version), "Size(%d)", row.Version)

	// Appending to a non-empty buffer keeps the prefix.
	prefix := []byte{0xaa, 0xbb}
	got2, err := m.AppendTo(append([]byte(nil), prefix...), row.Version)
	if assert.NoError(t, err) {
		assert.Equal(t, hexOf(prefix)+row.Hex, hexOf(got2), "AppendTo onto a prefix")
	}

	// Read-back: Java's bytes decode, consuming all of them, and re-encode to
	// the same bytes. Where Java reports rt=equal this is the round trip; where
	// it reports DIFFERENT (ignorable fields dropped, NaN) the bytes still
	// re-encode identically, only the decoded values differ from the original.
	if !strings.HasPrefix(row.RoundTrip, "rt=equal") && !strings.HasPrefix(row.RoundTrip, "rt=DIFFERENT") {
		t.Fatalf("unexpected read-back column %q", row.RoundTrip)
	}
	for _, aliased := range []bool{false, true} {
		d := goldenNewByName(c.typ)
		require.NotNil(t, d)
		var n int
		if aliased {
			n, err = d.DecodeAliased(want, row.Version)
		} else {
			n, err = d.Decode(want, row.Version)
		}
		if !assert.NoError(t, err, "decode Java's bytes (aliased=%v)", aliased) {
			continue
		}
		assert.Equal(t, len(want), n, "bytes consumed decoding Java's bytes (aliased=%v)", aliased)
		re, err := d.AppendTo(nil, row.Version)
		if assert.NoError(t, err, "re-encode (aliased=%v)", aliased) {
			assert.Equal(t, row.Hex, hexOf(re), "decode+re-encode (aliased=%v, %s)", aliased, row.RoundTrip[:min(len(row.RoundTrip), 12)])
		}
		assert.Equal(t, len(want), d.Size(row.Version), "Size after decode")
	}
}

func checkGoldenWriteError(t *testing.T, row goldenRow, c goldenWrite) {
	m := c.build()
	checkGoldenType(t, m, c.typ)
	require.Equal(t, -1, row.Length, "error rows have no length")

	var sentinel error
	field := c.errField
	switch {
	case row.ErrClass == "UnsupportedVersionException" && strings.HasPrefix(row.ErrMsg, "Attempted to write a non-default"):
		sentinel = runtime.ErrNonDefault
		sm := goldenNonDefaultRE.FindStringSubmatch(row.ErrMsg)
		require.NotNil(t, sm, "message %q", row.ErrMsg)
		require.Equal(t, strconv.Itoa(int(row.Version)), sm[2])
		if field == "" {
			field = sm[1]
		}
		require.True(t, strings.EqualFold(sm[1], goldenLastField(field)),
			"table errField %q does not end in Java's field %q", field, sm[1])
	case row.ErrClass == "UnsupportedVersionException" && strings.HasPrefix(row.ErrMsg, "Tagged fields were set"):
		sentinel = runtime.ErrTaggedFields
	case row.ErrClass == "NullPointerException":
		sentinel = runtime.ErrNull
		require.NotEmpty(t, field, "NullPointerException rows need the table's errField")
	default:
		t.Fatalf("no mapping for Java error %s: %s", row.ErrClass, row.ErrMsg)
	}

	got, err := m.AppendTo(nil, row.Version)
	if !assert.Error(t, err, "AppendTo v%d must fail like Java (%s: %s); got %x", row.Version, row.ErrClass, row.ErrMsg, got) {
		return
	}
	t.Logf("Go: %v | Java: %s: %s", err, row.ErrClass, row.ErrMsg)
	assert.Empty(t, got, "AppendTo returns dst unchanged on error")
	assert.ErrorIs(t, err, sentinel, "Java: %s: %s", row.ErrClass, row.ErrMsg)
	var re *runtime.Error
	if assert.ErrorAs(t, err, &re) {
		assert.Equal(t, "encode", re.Op)
		assert.Equal(t, c.typ, re.Message)
		assert.Equal(t, row.Version, re.Version)
		if field != "" {
			assert.True(t, strings.EqualFold(field, re.Field), "error field %q, want %q (Java: %s)", re.Field, field, row.ErrMsg)
			assert.Contains(t, strings.ToLower(err.Error()), strings.ToLower(goldenLastField(field)), "error text names the field")
		}
	}
}

func checkGoldenRead(t *testing.T, row goldenRow, c goldenRead) {
	in := goldenHex(t, row.Input)
	m := goldenNewByName(c.typ)
	require.NotNil(t, m, "no generated message %q", c.typ)

	if sm := goldenReadErrRE.FindStringSubmatch(row.Outcome); sm != nil {
		class, msg := sm[1], sm[2]
		require.Equal(t, "RuntimeException", class)
		var sentinel error
		field := c.errField
		if fm := goldenNullReadRE.FindStringSubmatch(msg); fm != nil {
			sentinel = runtime.ErrNull
			if field == "" {
				field = fm[1]
			}
			require.True(t, strings.EqualFold(fm[1], goldenLastField(field)), "table errField %q vs Java's %q", field, fm[1])
		} else if tm := goldenBadTagRE.FindStringSubmatch(msg); tm != nil {
			sentinel = runtime.ErrInvalidTag
			require.Equal(t, strconv.Itoa(int(row.Version)), tm[2])
		} else {
			t.Fatalf("no mapping for Java read error %q", msg)
		}
		for _, aliased := range []bool{false, true} {
			var err error
			if aliased {
				_, err = m.DecodeAliased(in, row.Version)
			} else {
				_, err = m.Decode(in, row.Version)
			}
			if !assert.Error(t, err, "decode must fail like Java: %s (aliased=%v)", msg, aliased) {
				continue
			}
			t.Logf("Go: %v | Java: %s", err, msg)
			assert.ErrorIs(t, err, sentinel, "Java: %s (aliased=%v)", msg, aliased)
			var re *runtime.Error
			if assert.ErrorAs(t, err, &re) {
				assert.Equal(t, "decode", re.Op)
				assert.Equal(t, c.typ, re.Message)
				if field != "" {
					assert.True(t, strings.EqualFold(field, re.Field), "error field %q, want %q (Java: %s)", re.Field, field, msg)
				}
			}
		}
		return
	}

	sm := goldenReadOKRE.FindStringSubmatch(row.Outcome)
	require.NotNil(t, sm, "unrecognised read outcome %q", row.Outcome)
	remaining, _ := strconv.Atoi(sm[1])
	for _, aliased := range []bool{false, true} {
		m.Reset()
		var n int
		var err error
		if aliased {
			n, err = m.DecodeAliased(in, row.Version)
		} else {
			n, err = m.Decode(in, row.Version)
		}
		if !assert.NoError(t, err, "decode (aliased=%v)", aliased) {
			continue
		}
		assert.Equal(t, len(in)-remaining, n, "bytes consumed: Java leaves %d of %d unread (aliased=%v)", remaining, len(in), aliased)
		if c.check != nil {
			c.check(t, m)
		}
		out, err := m.AppendTo(nil, row.Version)
		if sm[2] != "" || sm[3] == "" {
			if assert.NoError(t, err, "re-write (aliased=%v)", aliased) {
				assert.Equal(t, sm[2], hexOf(out), "re-written bytes (aliased=%v)", aliased)
				assert.Equal(t, len(sm[2])/2, m.Size(row.Version), "Size of the decoded message")
			}
			continue
		}
		// Re-write fails in Java.
		require.Equal(t, "RuntimeException", sm[3])
		require.True(t, strings.HasPrefix(sm[4], "Invalid raw tag field list"), "no mapping for Java re-write error %q", sm[4])
		if assert.Error(t, err, "re-write must fail like Java: %s (got %x)", sm[4], out) {
			assert.ErrorIs(t, err, runtime.ErrTagOrder, "Java: %s", sm[4])
			assert.Empty(t, out)
		}
	}
}

func checkGoldenType(t *testing.T, m runtime.Message, typ string) {
	t.Helper()
	require.NotNil(t, m)
	v, ok := m.(runtime.Versioned)
	require.True(t, ok, "%T is not runtime.Versioned", m)
	require.Equal(t, typ, v.SpecName(), "table type name vs the built message")
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}

// Builders shared by several rows.

func goldenAPIVersionsResponseOneKey() *clients.APIVersionsResponse {
	m := clients.NewAPIVersionsResponse()
	k := goldenDefaults[clients.APIVersionsResponseAPIVersion]()
	k.APIKey, k.MinVersion, k.MaxVersion = 18, 0, 4
	m.APIKeys = []clients.APIVersionsResponseAPIVersion{k}
	return m
}

// V15, V16: one key plus SupportedFeatures [{mv,1,2}] (tag 0),
// FinalizedFeaturesEpoch=5 (tag 1), ZkMigrationReady=true (tag 3).
func goldenAPIVersionsResponseTagged() runtime.Message {
	m := goldenAPIVersionsResponseOneKey()
	f := goldenDefaults[clients.APIVersionsResponseSupportedFeatureKey]()
	f.Name, f.MinVersion, f.MaxVersion = "mv", 1, 2
	m.SupportedFeatures = []clients.APIVersionsResponseSupportedFeatureKey{f}
	m.FinalizedFeaturesEpoch = 5
	m.ZkMigrationReady = true
	return m
}

func goldenRequestHeader(apiKey, apiVersion int16, corr int32, clientID runtime.NullString) *clients.RequestHeader {
	m := clients.NewRequestHeader()
	m.RequestAPIKey, m.RequestAPIVersion, m.CorrelationID, m.ClientID = apiKey, apiVersion, corr, clientID
	return m
}

func goldenMetadataTopic(id runtime.UUID, name runtime.NullString) clients.MetadataRequestTopic {
	tp := goldenDefaults[clients.MetadataRequestTopic]()
	tp.TopicID, tp.Name = id, name
	return tp
}

// DescribeConfigsRequest resources=[{type 2, name "t", ConfigurationKeys keys}].
func goldenDescribeConfigs(keys []string) runtime.Message {
	m := clients.NewDescribeConfigsRequest()
	r := goldenDefaults[clients.DescribeConfigsRequestDescribeConfigsResource]()
	r.ResourceType, r.ResourceName, r.ConfigurationKeys = 2, "t", keys
	m.Resources = []clients.DescribeConfigsRequestDescribeConfigsResource{r}
	return m
}

func goldenDeleteTopicNames(names []string, timeout int32) runtime.Message {
	m := clients.NewDeleteTopicsRequest()
	m.TopicNames, m.TimeoutMs = names, timeout
	return m
}

func goldenSaslAuthenticate() runtime.Message {
	m := clients.NewSaslAuthenticateRequest()
	m.AuthBytes = []byte("test")
	return m
}

func goldenAPIVersionsRequest(name, version string) runtime.Message {
	m := clients.NewAPIVersionsRequest()
	m.ClientSoftwareName, m.ClientSoftwareVersion = name, version
	return m
}

// AlterClientQuotasRequest entries=[{entity=[{user, null}], ops=[{k, value, false}]}].
func goldenAlterClientQuotas(value float64) runtime.Message {
	m := clients.NewAlterClientQuotasRequest()
	ent := goldenDefaults[clients.AlterClientQuotasRequestEntityData]()
	ent.EntityType, ent.EntityName = "user", runtime.Null
	op := goldenDefaults[clients.AlterClientQuotasRequestOpData]()
	op.Key, op.Value, op.Remove = "k", value, false
	e := goldenDefaults[clients.AlterClientQuotasRequestEntryData]()
	e.Entity = []clients.AlterClientQuotasRequestEntityData{ent}
	e.Ops = []clients.AlterClientQuotasRequestOpData{op}
	m.Entries = []clients.AlterClientQuotasRequestEntryData{e}
	return m
}

// ProduceRequest txnId=null acks timeout=1000 topicData=[{t, [{0, records}]}].
func goldenProduce(acks int16, records []byte) runtime.Message {
	m := clients.NewProduceRequest()
	m.TransactionalID, m.Acks, m.TimeoutMs = runtime.Null, acks, 1000
	p := goldenDefaults[clients.ProduceRequestPartitionProduceData]()
	p.Index, p.Records = 0, records
	td := goldenDefaults[clients.ProduceRequestTopicProduceData]()
	td.Name = "t"
	td.PartitionData = []clients.ProduceRequestPartitionProduceData{p}
	m.TopicData = []clients.ProduceRequestTopicProduceData{td}
	return m
}

// FetchRequest with the defaults of the Java harness: maxWaitMs=500, minBytes=1.
func goldenFetch() *clients.FetchRequest {
	m := clients.NewFetchRequest()
	m.MaxWaitMs, m.MinBytes = 500, 1
	return m
}

// FetchResponse v13 (topic id u1) with one partition holding HW=10, LSO=10,
// logStartOffset=0, abortedTransactions=null, records=null.
func goldenFetchResponseV13() (*clients.FetchResponse, *clients.FetchResponsePartitionData) {
	m := clients.NewFetchResponse()
	p := goldenDefaults[clients.FetchResponsePartitionData]()
	p.PartitionIndex, p.HighWatermark, p.LastStableOffset, p.LogStartOffset = 0, 10, 10, 0
	p.AbortedTransactions, p.Records = nil, nil
	tr := goldenDefaults[clients.FetchResponseFetchableTopicResponse]()
	tr.TopicID = goldenU1
	tr.Partitions = []clients.FetchResponsePartitionData{p}
	m.Responses = []clients.FetchResponseFetchableTopicResponse{tr}
	return m, &m.Responses[0].Partitions[0]
}

// ConsumerGroupHeartbeatResponse memberId="m" memberEpoch=1 heartbeatIntervalMs=5000.
func goldenCGHeartbeatResponse() *clients.ConsumerGroupHeartbeatResponse {
	m := clients.NewConsumerGroupHeartbeatResponse()
	m.ErrorMessage = runtime.Null
	m.MemberID = runtime.NewNullString("m")
	m.MemberEpoch, m.HeartbeatIntervalMs = 1, 5000
	return m
}

func goldenOffsetCommitRequest(retention int64) runtime.Message {
	m := clients.NewOffsetCommitRequest()
	m.GroupID, m.RetentionTimeMs = "g", retention
	return m
}

// PartitionChangeRecord partitionId=0 topicId=u1, everything else default.
func goldenPartitionChange() *metadata.PartitionChangeRecord {
	m := metadata.NewPartitionChangeRecord()
	m.PartitionID, m.TopicID = 0, goldenU1
	return m
}

// ConsumerGroupMemberMetadataValue clientId="c" clientHost="h", rest default.
func goldenCGMemberMetadata() *groupcoordinator.ConsumerGroupMemberMetadataValue {
	m := groupcoordinator.NewConsumerGroupMemberMetadataValue()
	m.ClientID, m.ClientHost = "c", "h"
	return m
}

func goldenOffsetCommitValue() runtime.Message {
	m := groupcoordinator.NewOffsetCommitValue()
	m.Offset, m.LeaderEpoch, m.Metadata, m.CommitTimestamp = 5, -1, "", 1
	return m
}

// V77: every tagged field of SimpleExampleMessage v1 non-default:
// myTaggedIntArray=[1,2] myNullableString="x" myInt16=5 myFloat64=1.0
// myString="s" myBytes=null taggedUuid=ZERO taggedLong=1, processId=u1.
func goldenSimpleExampleAllTagged() *clientstest.SimpleExampleMessage {
	m := clientstest.NewSimpleExampleMessage()
	m.ProcessID = goldenU1
	m.MyTaggedIntArray = []int32{1, 2}
	m.MyNullableString = runtime.NewNullString("x")
	m.MyInt16 = 5
	m.MyFloat64 = 1.0
	m.MyString = "s"
	m.MyBytes = nil
	m.TaggedUUID = runtime.UUID{}
	m.TaggedLong = 1
	return m
}

// NullableStructMessage with every struct set: {a,1} {b,2} {c,3} {d,4}.
func goldenNullableStructAllSet() runtime.Message {
	m := clientstest.NewNullableStructMessage()
	m.NullableStruct = &clientstest.NullableStructMessageMyStruct{MyString: "a", MyInt: 1}
	m.NullableStruct2 = &clientstest.NullableStructMessageMyStruct2{MyString: "b", MyInt: 2}
	m.NullableStruct3 = &clientstest.NullableStructMessageMyStruct3{MyString: "c", MyInt: 3}
	m.NullableStruct4 = &clientstest.NullableStructMessageMyStruct4{MyString: "d", MyInt: 4}
	return m
}

func goldenSimpleArrays(goats []clientstest.SimpleArraysMessageStructArray, sheep []int32) runtime.Message {
	m := clientstest.NewSimpleArraysMessage()
	m.Goats, m.Sheep = goats, sheep
	return m
}

func goldenGoat(color int8, name string) clientstest.SimpleArraysMessageStructArray {
	g := goldenDefaults[clientstest.SimpleArraysMessageStructArray]()
	g.Color, g.Name = color, name
	return g
}

// goldenWrites holds one entry per B.1 row (V1..V91), keyed by the row's
// exact description.
var goldenWrites = map[string]goldenWrite{
	// V1. ClientId (1+, ignorable) is dropped at header v0. Java's read-back
	// shows clientId='' and "DIFFERENT", so the written ClientId was not the
	// default; "client" as in V2.
	"RequestHeader apiKey=7 v0 corr=2342 (ControlledShutdown v0 header)": {"RequestHeader", func() runtime.Message {
		return goldenRequestHeader(7, 0, 2342, runtime.NewNullString("client"))
	}, ""},
	// V2
	`RequestHeader Metadata v1 corr=1 clientId="client"`: {"RequestHeader", func() runtime.Message {
		return goldenRequestHeader(3, 1, 1, runtime.NewNullString("client"))
	}, ""},
	// V3
	"RequestHeader Metadata v1 clientId=null": {"RequestHeader", func() runtime.Message {
		return goldenRequestHeader(3, 1, 1, runtime.Null)
	}, ""},
	// V4
	`RequestHeader ApiVersions v3 clientId="client" (header v2: ClientId keeps INT16 length)`: {"RequestHeader", func() runtime.Message {
		return goldenRequestHeader(18, 3, 1, runtime.NewNullString("client"))
	}, ""},
	// V5
	"RequestHeader header v2 clientId=null": {"RequestHeader", func() runtime.Message {
		return goldenRequestHeader(18, 3, 1, runtime.Null)
	}, ""},
	// V6
	`RequestHeader header v2 clientId="" + unknown tag 1000 [010203]`: {"RequestHeader", func() runtime.Message {
		m := goldenRequestHeader(18, 3, 1, runtime.NewNullString(""))
		m.UnknownTags = runtime.Tags{{Tag: 1000, Data: []byte{1, 2, 3}}}
		return m
	}, ""},
	// V7: the error names no field (message level).
	"RequestHeader header v1 with unknown tagged field set (not flexible)": {"RequestHeader", func() runtime.Message {
		m := goldenRequestHeader(3, 1, 1, runtime.NewNullString("client"))
		m.UnknownTags = runtime.Tags{{Tag: 1000, Data: []byte{1, 2, 3}}}
		return m
	}, ""},
	// V8
	"ResponseHeader v0 corr=7": {"ResponseHeader", func() runtime.Message {
		m := clients.NewResponseHeader()
		m.CorrelationID = 7
		return m
	}, ""},
	// V9
	"ResponseHeader v1 corr=7": {"ResponseHeader", func() runtime.Message {
		m := clients.NewResponseHeader()
		m.CorrelationID = 7
		return m
	}, ""},
	// V10
	`ApiVersionsRequest v3 name="kgo" version="1.0"`: {"ApiVersionsRequest", func() runtime.Message {
		return goldenAPIVersionsRequest("kgo", "1.0")
	}, ""},
	// V11: both fields are 3+ and ignorable; Java's read-back differs, so
	// they were set (as in V10) and dropped.
	"ApiVersionsRequest v2 (non-flexible, fields absent, ignorable)": {"ApiVersionsRequest", func() runtime.Message {
		return goldenAPIVersionsRequest("kgo", "1.0")
	}, ""},
	// V12
	"ApiVersionsResponse v3 one key, all tagged fields default (omitted)": {"ApiVersionsResponse", func() runtime.Message {
		return goldenAPIVersionsResponseOneKey()
	}, ""},
	// V13
	"ApiVersionsResponse v0 one key": {"ApiVersionsResponse", func() runtime.Message {
		return goldenAPIVersionsResponseOneKey()
	}, ""},
	// V14
	"ApiVersionsResponse v1 one key": {"ApiVersionsResponse", func() runtime.Message {
		return goldenAPIVersionsResponseOneKey()
	}, ""},
	// V15
	"ApiVersionsResponse v3 + SupportedFeatures(tag0) + FinalizedFeaturesEpoch=5(tag1, default -1) + ZkMigrationReady=true(tag3)": {"ApiVersionsResponse", goldenAPIVersionsResponseTagged, ""},
	// V16
	"same at v2 (tagged fields are ignorable -> silently dropped)": {"ApiVersionsResponse", goldenAPIVersionsResponseTagged, ""},
	// V17 (the description ends in a space)
	"MetadataRequest v0 topics=[] ": {"MetadataRequest", func() runtime.Message {
		m := clients.NewMetadataRequest()
		m.Topics = []clients.MetadataRequestTopic{}
		return m
	}, ""},
	// V18
	"MetadataRequest v0 topics=null (not nullable in v0)": {"MetadataRequest", func() runtime.Message {
		m := clients.NewMetadataRequest()
		m.Topics = nil
		return m
	}, "Topics"},
	// V19
	"MetadataRequest v1 topics=null": {"MetadataRequest", func() runtime.Message {
		m := clients.NewMetadataRequest()
		m.Topics = nil
		return m
	}, ""},
	// V20
	`MetadataRequest v4 topics=["a"] allowAutoTopicCreation=false`: {"MetadataRequest", func() runtime.Message {
		m := clients.NewMetadataRequest()
		m.Topics = []clients.MetadataRequestTopic{goldenMetadataTopic(runtime.UUID{}, runtime.NewNullString("a"))}
		m.AllowAutoTopicCreation = false
		return m
	}, ""},
	// V21
	"MetadataRequest v3 allowAutoTopicCreation=false (field 4+, non-ignorable, default true)": {"MetadataRequest", func() runtime.Message {
		m := clients.NewMetadataRequest()
		m.AllowAutoTopicCreation = false
		return m
	}, "AllowAutoTopicCreation"},
	// V22
	"MetadataRequest v9 topics=null": {"MetadataRequest", func() runtime.Message {
		m := clients.NewMetadataRequest()
		m.Topics = nil
		return m
	}, ""},
	// V23
	"MetadataRequest v12 topics=[{id=u1,name=null}]": {"MetadataRequest", func() runtime.Message {
		m := clients.NewMetadataRequest()
		m.Topics = []clients.MetadataRequestTopic{goldenMetadataTopic(goldenU1, runtime.Null)}
		return m
	}, ""},
	// V24..V27: resources=[{resourceType=2, resourceName="t", keys}]
	"DescribeConfigsRequest v0 ConfigurationKeys=null": {"DescribeConfigsRequest", func() runtime.Message {
		return goldenDescribeConfigs(nil)
	}, ""},
	"DescribeConfigsRequest v4 ConfigurationKeys=null": {"DescribeConfigsRequest", func() runtime.Message {
		return goldenDescribeConfigs(nil)
	}, ""},
	"DescribeConfigsRequest v0 ConfigurationKeys=[a,bc]": {"DescribeConfigsRequest", func() runtime.Message {
		return goldenDescribeConfigs([]string{"a", "bc"})
	}, ""},
	"DescribeConfigsRequest v4 ConfigurationKeys=[a,bc]": {"DescribeConfigsRequest", func() runtime.Message {
		return goldenDescribeConfigs([]string{"a", "bc"})
	}, ""},
	// V28, V29
	"DeleteTopicsRequest v0 names=[a,bc] timeout=1000": {"DeleteTopicsRequest", func() runtime.Message {
		return goldenDeleteTopicNames([]string{"a", "bc"}, 1000)
	}, ""},
	"DeleteTopicsRequest v4 names=[a,bc] timeout=1000": {"DeleteTopicsRequest", func() runtime.Message {
		return goldenDeleteTopicNames([]string{"a", "bc"}, 1000)
	}, ""},
	// V30
	"DeleteTopicsRequest v6 topics=[{name=null, id=u1}] (names field absent 6+)": {"DeleteTopicsRequest", func() runtime.Message {
		m := clients.NewDeleteTopicsRequest()
		ts := goldenDefaults[clients.DeleteTopicsRequestDeleteTopicState]()
		ts.Name, ts.TopicID = runtime.Null, goldenU1
		m.Topics = []clients.DeleteTopicsRequestDeleteTopicState{ts}
		m.TimeoutMs = 1000
		return m
	}, ""},
	// V31, V32
	`SaslAuthenticateRequest v2 authBytes="test"`: {"SaslAuthenticateRequest", goldenSaslAuthenticate, ""},
	`SaslAuthenticateRequest v0 authBytes="test"`: {"SaslAuthenticateRequest", goldenSaslAuthenticate, ""},
	// V33
	`ApiVersionsRequest v3 name="hé€" (UTF-8 length 6, 3 chars)`: {"ApiVersionsRequest", func() runtime.Message {
		return goldenAPIVersionsRequest("hé€", "")
	}, ""},
	// V34..V37
	"AlterClientQuotasRequest v1 op value=1.5": {"AlterClientQuotasRequest", func() runtime.Message {
		return goldenAlterClientQuotas(1.5)
	}, ""},
	"AlterClientQuotasRequest v1 op value=-0.0": {"AlterClientQuotasRequest", func() runtime.Message {
		return goldenAlterClientQuotas(math.Copysign(0, -1))
	}, ""},
	"AlterClientQuotasRequest v1 op value=NaN": {"AlterClientQuotasRequest", func() runtime.Message {
		return goldenAlterClientQuotas(math.Float64frombits(0x7ff8000000000000)) // Java's Double.NaN
	}, ""},
	"AlterClientQuotasRequest v1 op value=Infinity": {"AlterClientQuotasRequest", func() runtime.Message {
		return goldenAlterClientQuotas(math.Inf(1))
	}, ""},
	// V38: brokerId=1 clusterId="c" listeners=[{PLAINTEXT, "h", 65535, 0}] features=[].
	"BrokerRegistrationRequest v0 port=65535 incarnation=u1 rack=null": {"BrokerRegistrationRequest", func() runtime.Message {
		m := clients.NewBrokerRegistrationRequest()
		m.BrokerID, m.ClusterID, m.IncarnationID = 1, "c", goldenU1
		l := goldenDefaults[clients.BrokerRegistrationRequestListener]()
		l.Name, l.Host, l.Port, l.SecurityProtocol = "PLAINTEXT", "h", 65535, 0
		m.Listeners = []clients.BrokerRegistrationRequestListener{l}
		m.Features = []clients.BrokerRegistrationRequestFeature{}
		m.Rack = runtime.Null
		return m
	}, ""},
	// V39
	"TopicRecord v0 name=foo id=u1": {"TopicRecord", func() runtime.Message {
		m := metadata.NewTopicRecord()
		m.Name, m.TopicID = "foo", goldenU1
		return m
	}, ""},
	// V40..V44: topicData=[{name "t", partitionData=[{index 0, records}]}]
	"ProduceRequest v3 txnId=null acks=-1 timeout=1000 records=null": {"ProduceRequest", func() runtime.Message {
		return goldenProduce(-1, nil)
	}, ""},
	"ProduceRequest v9 same (records=null -> compact 0)": {"ProduceRequest", func() runtime.Message {
		return goldenProduce(-1, nil)
	}, ""},
	"ProduceRequest v9 records=MemoryRecords.EMPTY": {"ProduceRequest", func() runtime.Message {
		return goldenProduce(-1, []byte{})
	}, ""},
	"ProduceRequest v3 records=MemoryRecords.EMPTY": {"ProduceRequest", func() runtime.Message {
		return goldenProduce(-1, []byte{})
	}, ""},
	// V44: Java's bytes carry acks=1 (0001) here.
	"ProduceRequest v9 records=5 raw bytes 0102030405 (opaque to the message layer)": {"ProduceRequest", func() runtime.Message {
		return goldenProduce(1, []byte{1, 2, 3, 4, 5})
	}, ""},
	// V45..V51: maxWaitMs=500 minBytes=1 (Java harness), rest default.
	"FetchRequest v12 defaults (ClusterId null -> no tag; RackId \"\")": {"FetchRequest", func() runtime.Message {
		return goldenFetch()
	}, ""},
	`FetchRequest v12 ClusterId="abc" (tag 0)`: {"FetchRequest", func() runtime.Message {
		m := goldenFetch()
		m.ClusterID = runtime.NewNullString("abc")
		return m
	}, ""},
	"FetchRequest v15 ReplicaState{id=1,epoch=2} (tag 1, non-nullable tagged struct)": {"FetchRequest", func() runtime.Message {
		m := goldenFetch()
		m.ReplicaState.ReplicaID, m.ReplicaState.ReplicaEpoch = 1, 2
		return m
	}, ""},
	"FetchRequest v15 ReplicaState default (-1,-1) -> omitted": {"FetchRequest", func() runtime.Message {
		m := goldenFetch()
		m.ReplicaState.ReplicaID, m.ReplicaState.ReplicaEpoch = -1, -1
		return m
	}, ""},
	"FetchRequest v3 maxBytes default 0x7fffffff": {"FetchRequest", func() runtime.Message {
		return goldenFetch()
	}, ""},
	"FetchRequest v4 ForgottenTopics non-empty at v4 (field 7+, non-ignorable)": {"FetchRequest", func() runtime.Message {
		m := goldenFetch()
		ft := goldenDefaults[clients.FetchRequestForgottenTopic]()
		ft.Topic, ft.Partitions = "t", []int32{0}
		m.ForgottenTopicsData = []clients.FetchRequestForgottenTopic{ft}
		return m
	}, "ForgottenTopicsData"},
	"FetchRequest v11 ClusterId=abc (v11 not flexible; tagged field ignorable -> dropped)": {"FetchRequest", func() runtime.Message {
		m := goldenFetch()
		m.ClusterID = runtime.NewNullString("abc")
		return m
	}, ""},
	// V52
	"FetchResponse v13 partition defaults (nested tagged structs omitted, abortedTxns=null, records=null)": {"FetchResponse", func() runtime.Message {
		m, _ := goldenFetchResponseV13()
		return m
	}, ""},
	// V53
	"FetchResponse v13 + DivergingEpoch(tag0) + CurrentLeader(tag1) in partition": {"FetchResponse", func() runtime.Message {
		m, p := goldenFetchResponseV13()
		p.DivergingEpoch.Epoch, p.DivergingEpoch.EndOffset = 3, 100
		p.CurrentLeader.LeaderID, p.CurrentLeader.LeaderEpoch = 2, 3
		return m
	}, ""},
	// V54: responses=[{topic "t", partitions=[{0, defaults, abortedTxns=null, records=null}]}]
	"FetchResponse v4 abortedTxns=null records=null (non-flexible: int32 -1 each)": {"FetchResponse", func() runtime.Message {
		m := clients.NewFetchResponse()
		p := goldenDefaults[clients.FetchResponsePartitionData]()
		p.AbortedTransactions, p.Records = nil, nil
		tr := goldenDefaults[clients.FetchResponseFetchableTopicResponse]()
		tr.Topic = "t"
		tr.Partitions = []clients.FetchResponsePartitionData{p}
		m.Responses = []clients.FetchResponseFetchableTopicResponse{tr}
		return m
	}, ""},
	// V55
	"ConsumerGroupHeartbeatResponse v0 Assignment=null (int8 -1 marker)": {"ConsumerGroupHeartbeatResponse", func() runtime.Message {
		m := goldenCGHeartbeatResponse()
		m.Assignment = nil
		return m
	}, ""},
	// V56
	"ConsumerGroupHeartbeatResponse v0 Assignment={[ {u1,[0,1]} ]} (int8 1 marker)": {"ConsumerGroupHeartbeatResponse", func() runtime.Message {
		m := goldenCGHeartbeatResponse()
		tp := goldenDefaults[clients.ConsumerGroupHeartbeatResponseTopicPartitions]()
		tp.TopicID, tp.Partitions = goldenU1, []int32{0, 1}
		a := goldenDefaults[clients.ConsumerGroupHeartbeatResponseAssignment]()
		a.TopicPartitions = []clients.ConsumerGroupHeartbeatResponseTopicPartitions{tp}
		m.Assignment = &a
		return m
	}, ""},
	// V57: timeoutMs stays at its default 0 (the bytes end 00000000 00).
	"DeleteTopicsRequest v4 127 empty names (compact length 128 -> varint 8001)": {"DeleteTopicsRequest", func() runtime.Message {
		return goldenDeleteTopicNames(make([]string, 127), 0)
	}, ""},
	// V58, V59
	"CreateTopicsRequest v0 validateOnly=true (field 1+, not ignorable)": {"CreateTopicsRequest", func() runtime.Message {
		m := clients.NewCreateTopicsRequest()
		m.ValidateOnly = true
		return m
	}, "ValidateOnly"},
	"CreateTopicsRequest v0 validateOnly=false": {"CreateTopicsRequest", func() runtime.Message {
		m := clients.NewCreateTopicsRequest()
		m.ValidateOnly = false
		return m
	}, ""},
	// V60, V61: groupId="g"
	"OffsetCommitRequest v0 retentionTimeMs=123 (field 2-4, ignorable)": {"OffsetCommitRequest", func() runtime.Message {
		return goldenOffsetCommitRequest(123)
	}, ""},
	"OffsetCommitRequest v2 retentionTimeMs=123": {"OffsetCommitRequest", func() runtime.Message {
		return goldenOffsetCommitRequest(123)
	}, ""},
	// V62
	`HeartbeatRequest v0 groupInstanceId="i" (field 3+, default null, not ignorable)`: {"HeartbeatRequest", func() runtime.Message {
		m := clients.NewHeartbeatRequest()
		m.GroupID = "g"
		m.GroupInstanceID = runtime.NewNullString("i")
		return m
	}, "GroupInstanceId"},
	// V63..V67: partitionId=0 topicId=u1
	"PartitionChangeRecord v0 all tagged at default (Leader=-2, Isr=null, LRS=-1)": {"PartitionChangeRecord", func() runtime.Message {
		return goldenPartitionChange()
	}, ""},
	"PartitionChangeRecord v0 Leader=1 Isr=[1,2] LeaderRecoveryState=0": {"PartitionChangeRecord", func() runtime.Message {
		m := goldenPartitionChange()
		m.Leader, m.Isr, m.LeaderRecoveryState = 1, []int32{1, 2}, 0
		return m
	}, ""},
	"PartitionChangeRecord v0 Isr=[] (empty but non-null -> written)": {"PartitionChangeRecord", func() runtime.Message {
		m := goldenPartitionChange()
		m.Isr = []int32{}
		return m
	}, ""},
	"PartitionChangeRecord v0 Directories set (field 1+, tagged, non-ignorable)": {"PartitionChangeRecord", func() runtime.Message {
		m := goldenPartitionChange()
		m.Directories = []runtime.UUID{goldenU1}
		return m
	}, "Directories"},
	"PartitionChangeRecord v2 ELR=[3] Directories=[u1] (tags 6,8 out of field order)": {"PartitionChangeRecord", func() runtime.Message {
		m := goldenPartitionChange()
		m.EligibleLeaderReplicas = []int32{3}
		m.Directories = []runtime.UUID{goldenU1}
		return m
	}, ""},
	// V68..V70: clientId="c" clientHost="h"
	"ConsumerGroupMemberMetadataValue v0 ClassicMemberMetadata=<default empty struct> (omitted)": {"ConsumerGroupMemberMetadataValue", func() runtime.Message {
		m := goldenCGMemberMetadata()
		m.ClassicMemberMetadata = &groupcoordinator.ConsumerGroupMemberMetadataValueClassicMemberMetadata{
			SupportedProtocols: []groupcoordinator.ConsumerGroupMemberMetadataValueClassicProtocol{},
		}
		return m
	}, ""},
	"ConsumerGroupMemberMetadataValue v0 ClassicMemberMetadata=null (written as tag0 len1 00)": {"ConsumerGroupMemberMetadataValue", func() runtime.Message {
		m := goldenCGMemberMetadata()
		m.ClassicMemberMetadata = nil
		return m
	}, ""},
	"ConsumerGroupMemberMetadataValue v0 ClassicMemberMetadata{sessionTimeout=45000,protocols=[]}": {"ConsumerGroupMemberMetadataValue", func() runtime.Message {
		m := goldenCGMemberMetadata()
		c := goldenDefaults[groupcoordinator.ConsumerGroupMemberMetadataValueClassicMemberMetadata]()
		c.SessionTimeoutMs = 45000
		c.SupportedProtocols = []groupcoordinator.ConsumerGroupMemberMetadataValueClassicProtocol{}
		m.ClassicMemberMetadata = &c
		return m
	}, ""},
	// V71
	"OffsetCommitKey v1 group=g topic=t partition=0": {"OffsetCommitKey", func() runtime.Message {
		m := groupcoordinator.NewOffsetCommitKey()
		m.Group, m.Topic, m.Partition = "g", "t", 0
		return m
	}, ""},
	// V72, V73
	`OffsetCommitValue v3 offset=5 leaderEpoch=-1 metadata="" commitTs=1`: {"OffsetCommitValue", goldenOffsetCommitValue, ""},
	"OffsetCommitValue v4 (flexible) same":                                {"OffsetCommitValue", goldenOffsetCommitValue, ""},
	// V74..V76
	"SimpleExampleMessage v0 defaults": {"SimpleExampleMessage", func() runtime.Message {
		return clientstest.NewSimpleExampleMessage()
	}, ""},
	"SimpleExampleMessage v1 defaults": {"SimpleExampleMessage", func() runtime.Message {
		return clientstest.NewSimpleExampleMessage()
	}, ""},
	"SimpleExampleMessage v2 defaults": {"SimpleExampleMessage", func() runtime.Message {
		return clientstest.NewSimpleExampleMessage()
	}, ""},
	// V77
	"SimpleExampleMessage v1 all tagged non-default (myBytes=null, taggedUuid=ZERO)": {"SimpleExampleMessage", func() runtime.Message {
		return goldenSimpleExampleAllTagged()
	}, ""},
	// V78
	"... plus unknown tag 1000 [09] (written after tag 7)": {"SimpleExampleMessage", func() runtime.Message {
		m := goldenSimpleExampleAllTagged()
		m.UnknownTags = runtime.Tags{{Tag: 1000, Data: []byte{0x09}}}
		return m
	}, ""},
	// V79
	"SimpleExampleMessage v2 myTaggedStruct{abc}(tag8) myStruct{25} taggedLongFlexibleVersionSubset=15(tag9)": {"SimpleExampleMessage", func() runtime.Message {
		m := clientstest.NewSimpleExampleMessage()
		m.MyTaggedStruct.StructID = "abc"
		m.MyStruct.StructID = 25
		m.TaggedLongFlexibleVersionSubset = 15
		return m
	}, ""},
	// V80
	"SimpleExampleMessage v1 myStruct set (field 2+, non-ignorable)": {"SimpleExampleMessage", func() runtime.Message {
		m := clientstest.NewSimpleExampleMessage()
		m.MyStruct.StructID = 25
		return m
	}, "myStruct"},
	// V81
	"SimpleExampleMessage v1 zeroCopy [010203] nullableZeroCopy=null": {"SimpleExampleMessage", func() runtime.Message {
		m := clientstest.NewSimpleExampleMessage()
		m.ZeroCopyByteBuffer = []byte{1, 2, 3}
		m.NullableZeroCopyByteBuffer = nil
		return m
	}, ""},
	// V82
	"SimpleExampleMessage v1 myUint16=65535 myUint32=4294967295": {"SimpleExampleMessage", func() runtime.Message {
		m := clientstest.NewSimpleExampleMessage()
		m.MyUint16, m.MyUint32 = 65535, 4294967295
		return m
	}, ""},
	// V83, V84
	"NullableStructMessage v0 defaults (NullableStruct=null, NullableStruct2=empty)": {"NullableStructMessage", func() runtime.Message {
		return clientstest.NewNullableStructMessage()
	}, ""},
	"NullableStructMessage v1 defaults (NullableStruct3=null omitted, NullableStruct4=empty omitted)": {"NullableStructMessage", func() runtime.Message {
		return clientstest.NewNullableStructMessage()
	}, ""},
	// V85, V86
	"NullableStructMessage v0 all set": {"NullableStructMessage", goldenNullableStructAllSet, "NullableStruct3"},
	"NullableStructMessage v2 all set": {"NullableStructMessage", goldenNullableStructAllSet, ""},
	// V87
	"NullableStructMessage v2 all null (Struct4 default is empty struct -> null written as tag1 len1 00)": {"NullableStructMessage", func() runtime.Message {
		m := clientstest.NewNullableStructMessage()
		m.NullableStruct, m.NullableStruct2, m.NullableStruct3, m.NullableStruct4 = nil, nil, nil, nil
		return m
	}, ""},
	// V88
	"NullableStructMessage v0 NullableStruct2=null (not nullable in v0)": {"NullableStructMessage", func() runtime.Message {
		m := clientstest.NewNullableStructMessage()
		m.NullableStruct2 = nil
		return m
	}, "NullableStruct2"},
	// V89 (the description ends in a space)
	"SimpleArraysMessage v0 sheep=[1] goats=[] ": {"SimpleArraysMessage", func() runtime.Message {
		return goldenSimpleArrays([]clientstest.SimpleArraysMessageStructArray{}, []int32{1})
	}, ""},
	// V90: Java fails on the goat's Name (2+), so the goat carried a
	// non-default name although the description shows only color=1; "n" as
	// in V91.
	"SimpleArraysMessage v1 goats=[{color=1}] sheep=[]": {"SimpleArraysMessage", func() runtime.Message {
		return goldenSimpleArrays([]clientstest.SimpleArraysMessageStructArray{goldenGoat(1, "n")}, []int32{})
	}, "Goats[0].Name"},
	// V91
	"SimpleArraysMessage v2 goats=[{color=1,name=n}] sheep=[]": {"SimpleArraysMessage", func() runtime.Message {
		return goldenSimpleArrays([]clientstest.SimpleArraysMessageStructArray{goldenGoat(1, "n")}, []int32{})
	}, ""},
}

// goldenReads holds one entry per B.2 row (V92..V100), keyed by the row's
// exact description.
var goldenReads = map[string]goldenRead{
	// V92
	"READ SaslAuthenticateRequest (RequestResponseTest vector: unknown tag 1 preserved)": {typ: "SaslAuthenticateRequest",
		check: func(t *testing.T, msg runtime.Message) {
			m := msg.(*clients.SaslAuthenticateRequest)
			assert.Equal(t, []byte("test"), m.AuthBytes)
			assert.Equal(t, runtime.Tags{{Tag: 1, Data: []byte{1, 2, 3}}}, m.UnknownTags)
		}},
	// V93: Java names no field.
	"READ FetchRequest v12 carrying tag 1 (ReplicaState is tagged only in 15+)": {typ: "FetchRequest"},
	// V94: parses; the re-write fails (checked against ErrTagOrder).
	"READ SimpleExampleMessage v1 unknown tags out of order (20 then 10)": {typ: "SimpleExampleMessage",
		check: func(t *testing.T, msg runtime.Message) {
			m := msg.(*clientstest.SimpleExampleMessage)
			assert.Equal(t, runtime.Tags{{Tag: 20, Data: []byte{0}}, {Tag: 10, Data: []byte{0}}}, m.UnknownTags,
				"unknown tags kept in encounter order")
		}},
	// V95: last wins.
	"READ SimpleExampleMessage v1 known tag 2 (myInt16) twice: 7 then 9": {typ: "SimpleExampleMessage",
		check: func(t *testing.T, msg runtime.Message) {
			m := msg.(*clientstest.SimpleExampleMessage)
			assert.Equal(t, int16(9), m.MyInt16)
			assert.Empty(t, m.UnknownTags)
		}},
	// V96: the declared size of a known tag is ignored; 1 byte is left.
	"READ SimpleExampleMessage v1 tag 2 (int16) with declared size 3 (payload 000700)": {typ: "SimpleExampleMessage",
		check: func(t *testing.T, msg runtime.Message) {
			m := msg.(*clientstest.SimpleExampleMessage)
			assert.Equal(t, int16(7), m.MyInt16)
			assert.Empty(t, m.UnknownTags)
		}},
	// V97
	"READ SimpleExampleMessage v1 tag 1 myNullableString explicit null (len varint 0)": {typ: "SimpleExampleMessage",
		check: func(t *testing.T, msg runtime.Message) {
			m := msg.(*clientstest.SimpleExampleMessage)
			assert.Equal(t, runtime.Null, m.MyNullableString)
			assert.Empty(t, m.UnknownTags)
		}},
	// V98
	"READ ApiVersionsRequest v3 compact string length varint 0 for non-nullable": {typ: "ApiVersionsRequest", errField: "ClientSoftwareName"},
	// V99
	"READ MetadataRequest v0 topics length -1 (not nullable in v0)": {typ: "MetadataRequest", errField: "Topics"},
	// V100: SimpleArraysMessage v2 Goats; Java's readUnsignedVarint accepts
	// ff ff ff ff 7f as -1, so the compact length is null.
	"READ 5-byte varint whose 5th byte is 0x7f (array length)": {typ: "SimpleArraysMessage", errField: "Goats"},
}
