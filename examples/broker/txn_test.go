package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// txnProducer drives one transactional id through the generated messages.
type txnProducer struct {
	t     *testing.T
	cl    *wire.Client
	id    string
	pid   int64
	epoch int16
	seq   int32
}

func initTxn(t *testing.T, cl *wire.Client, id string) *txnProducer {
	t.Helper()
	req := kafkamsg.NewInitProducerIDRequest()
	req.TransactionalID, req.TransactionTimeoutMs = runtime.NewNullString(id), 60000
	resp := do(t, cl, req, 4, kafkamsg.NewInitProducerIDResponse())
	require.Equal(t, codeNone, resp.ErrorCode)
	return &txnProducer{t: t, cl: cl, id: id, pid: resp.ProducerID, epoch: resp.ProducerEpoch}
}

// addPartition runs AddPartitionsToTxn v3 (the clients' form).
func (p *txnProducer) addPartition(topic string, partition int32) int16 {
	req := kafkamsg.NewAddPartitionsToTxnRequest()
	req.V3AndBelowTransactionalID, req.V3AndBelowProducerID, req.V3AndBelowProducerEpoch = p.id, p.pid, p.epoch
	req.V3AndBelowTopics = []kafkamsg.AddPartitionsToTxnRequestAddPartitionsToTxnTopic{{Name: topic, Partitions: []int32{partition}}}
	resp := do(p.t, p.cl, req, 3, kafkamsg.NewAddPartitionsToTxnResponse())
	return resp.ResultsByTopicV3AndBelow[0].ResultsByPartition[0].PartitionErrorCode
}

// produce writes a transactional batch of values.
func (p *txnProducer) produce(topic string, values ...string) kafkamsg.ProduceResponsePartitionProduceResponse {
	b := records.NewBatchBuilder()
	b.ProducerID, b.ProducerEpoch, b.BaseSequence, b.Transactional = p.pid, p.epoch, p.seq, true
	for _, v := range values {
		b.Append(1, nil, []byte(v))
	}
	blob, err := b.AppendTo(nil)
	require.NoError(p.t, err)
	p.seq += int32(len(values))
	req := produceReq(topic, 0, -1, blob)
	req.TransactionalID = runtime.NewNullString(p.id)
	resp := do(p.t, p.cl, req, 9, kafkamsg.NewProduceResponse())
	return resp.Responses[0].PartitionResponses[0]
}

func (p *txnProducer) end(commit bool) int16 {
	req := kafkamsg.NewEndTxnRequest()
	req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.Committed = p.id, p.pid, p.epoch, commit
	return do(p.t, p.cl, req, 3, kafkamsg.NewEndTxnResponse()).ErrorCode
}

// fetchCommitted fetches a partition read_committed at v11.
func fetchCommitted(t *testing.T, cl *wire.Client, topic string) kafkamsg.FetchResponsePartitionData {
	t.Helper()
	req := fetchReq(11, topic, runtime.UUID{}, 0, 0)
	req.IsolationLevel = readCommitted
	return fetchOne(t, cl, 11, req)
}

// values are the data records' values, control records left out.
func values(t *testing.T, blob []byte) []string {
	var out []string
	var r records.Reader
	r.Reset(blob)
	for r.Next() {
		if r.Batch().IsControl() {
			continue
		}
		for _, rec := range readRecords(t, r.Batch().Raw) {
			out = append(out, string(rec.Value))
		}
	}
	return out
}

func TestTransactionCommitAndAbort(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "txn")
	createTopic(t, cl, "tx", 1)
	p := initTxn(t, cl, "tid")

	// Producing before AddPartitionsToTxn is refused.
	assert.Equal(t, kerrors.InvalidTxnState.Code, p.produce("tx", "early").ErrorCode)

	require.Equal(t, codeNone, p.addPartition("tx", 0))
	require.Equal(t, codeNone, p.produce("tx", "c0", "c1").ErrorCode)
	open := fetchCommitted(t, cl, "tx")
	assert.Equal(t, int64(2), open.HighWatermark)
	assert.Equal(t, int64(0), open.LastStableOffset, "an open transaction holds the last stable offset")
	assert.Empty(t, open.Records, "read_committed sees nothing past it")
	require.Equal(t, codeNone, p.end(true))

	require.Equal(t, codeNone, p.addPartition("tx", 0))
	require.Equal(t, codeNone, p.produce("tx", "a0", "a1", "a2").ErrorCode)
	require.Equal(t, codeNone, p.end(false))
	assert.Equal(t, codeNone, p.end(false), "a retried EndTxn succeeds")
	assert.Equal(t, kerrors.InvalidTxnState.Code, p.end(true), "but not one ending it the other way")

	done := fetchCommitted(t, cl, "tx")
	// c0 c1 COMMIT a0 a1 a2 ABORT
	assert.Equal(t, int64(7), done.HighWatermark)
	assert.Equal(t, int64(7), done.LastStableOffset)
	assert.Equal(t, []kafkamsg.FetchResponseAbortedTransaction{{ProducerID: p.pid, FirstOffset: 3}}, done.AbortedTransactions)
	assert.Equal(t, []string{"c0", "c1", "a0", "a1", "a2"}, values(t, done.Records),
		"the consumer drops the aborted span itself, from AbortedTransactions")
	var markers []records.ControlType
	for _, rec := range readRecords(t, done.Records) {
		if rec.Offset == 2 || rec.Offset == 6 {
			typ, err := rec.ControlType()
			require.NoError(t, err)
			markers = append(markers, typ)
		}
	}
	assert.Equal(t, []records.ControlType{records.ControlCommit, records.ControlAbort}, markers)

	uncommitted := fetchOne(t, cl, 11, fetchReq(11, "tx", runtime.UUID{}, 0, 0))
	assert.Nil(t, uncommitted.AbortedTransactions, "read_uncommitted gets no aborted list")
}

func TestTransactionFencing(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: true})
	cl := tb.client(t, "txn")
	createTopic(t, cl, "f", 1)
	old := initTxn(t, cl, "tid")
	require.Equal(t, codeNone, old.addPartition("f", 0))
	require.Equal(t, codeNone, old.produce("f", "lost").ErrorCode)

	// A new producer with the same id aborts the open transaction and
	// fences the old one.
	fresh := initTxn(t, cl, "tid")
	assert.Equal(t, old.pid, fresh.pid)
	assert.Equal(t, old.epoch+1, fresh.epoch)
	assert.Equal(t, kerrors.ProducerFenced.Code, old.end(true))
	assert.Equal(t, kerrors.InvalidProducerEpoch.Code, old.produce("f", "zombie").ErrorCode)
	done := fetchCommitted(t, cl, "f")
	assert.Equal(t, done.HighWatermark, done.LastStableOffset, "the abort closed the transaction")
	assert.Len(t, done.AbortedTransactions, 1)

	// A partition that does not exist fails the whole request.
	req := kafkamsg.NewAddPartitionsToTxnRequest()
	req.V3AndBelowTransactionalID, req.V3AndBelowProducerID, req.V3AndBelowProducerEpoch = fresh.id, fresh.pid, fresh.epoch
	req.V3AndBelowTopics = []kafkamsg.AddPartitionsToTxnRequestAddPartitionsToTxnTopic{{Name: "f", Partitions: []int32{0, 9}}}
	resp := do(t, cl, req, 3, kafkamsg.NewAddPartitionsToTxnResponse())
	codes := resp.ResultsByTopicV3AndBelow[0].ResultsByPartition
	assert.Equal(t, kerrors.OperationNotAttempted.Code, codes[0].PartitionErrorCode)
	assert.Equal(t, kerrors.UnknownTopicOrPartition.Code, codes[1].PartitionErrorCode)

	bad := kafkamsg.NewInitProducerIDRequest()
	bad.TransactionalID, bad.TransactionTimeoutMs = runtime.NewNullString("x"), 0
	assert.Equal(t, kerrors.InvalidTransactionTimeout.Code, do(t, cl, bad, 4, kafkamsg.NewInitProducerIDResponse()).ErrorCode)
}

func TestAddPartitionsToTxnBatched(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "broker-side")
	createTopic(t, cl, "b", 1)
	p := initTxn(t, cl, "tid")
	req := kafkamsg.NewAddPartitionsToTxnRequest()
	tr := kafkamsg.AddPartitionsToTxnRequestAddPartitionsToTxnTransaction{TransactionalID: p.id, ProducerID: p.pid, ProducerEpoch: p.epoch,
		Topics: []kafkamsg.AddPartitionsToTxnRequestAddPartitionsToTxnTopic{{Name: "b", Partitions: []int32{0}}}}
	verify := tr
	verify.VerifyOnly = true
	req.Transactions = []kafkamsg.AddPartitionsToTxnRequestAddPartitionsToTxnTransaction{verify}
	resp := do(t, cl, req, 5, kafkamsg.NewAddPartitionsToTxnResponse())
	require.Len(t, resp.ResultsByTransaction, 1)
	assert.Equal(t, kerrors.InvalidTxnState.Code, resp.ResultsByTransaction[0].TopicResults[0].ResultsByPartition[0].PartitionErrorCode,
		"verifying a partition not yet in the transaction")

	req.Transactions = []kafkamsg.AddPartitionsToTxnRequestAddPartitionsToTxnTransaction{tr}
	resp = do(t, cl, req, 5, kafkamsg.NewAddPartitionsToTxnResponse())
	assert.Equal(t, codeNone, resp.ResultsByTransaction[0].TopicResults[0].ResultsByPartition[0].PartitionErrorCode)
	req.Transactions = []kafkamsg.AddPartitionsToTxnRequestAddPartitionsToTxnTransaction{verify}
	resp = do(t, cl, req, 5, kafkamsg.NewAddPartitionsToTxnResponse())
	assert.Equal(t, p.id, resp.ResultsByTransaction[0].TransactionalID)
	assert.Equal(t, codeNone, resp.ResultsByTransaction[0].TopicResults[0].ResultsByPartition[0].PartitionErrorCode)
}

func TestTransactionalOffsets(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "txn")
	createTopic(t, cl, "in", 1)
	p := initTxn(t, cl, "tid")
	txnCommit := func(offset int64) int16 {
		req := kafkamsg.NewTxnOffsetCommitRequest()
		req.TransactionalID, req.GroupID, req.ProducerID, req.ProducerEpoch = p.id, "g", p.pid, p.epoch
		part := defaults[kafkamsg.TxnOffsetCommitRequestPartition]()
		part.PartitionIndex, part.CommittedOffset = 0, offset
		req.Topics = []kafkamsg.TxnOffsetCommitRequestTopic{{Name: "in", Partitions: []kafkamsg.TxnOffsetCommitRequestPartition{part}}}
		return do(t, cl, req, 3, kafkamsg.NewTxnOffsetCommitResponse()).Topics[0].Partitions[0].ErrorCode
	}
	fetch := func() kafkamsg.OffsetFetchResponsePartitions {
		req := kafkamsg.NewOffsetFetchRequest()
		req.RequireStable = true
		req.Groups = []kafkamsg.OffsetFetchRequestGroup{{GroupID: "g", Topics: []kafkamsg.OffsetFetchRequestTopics{{Name: "in", PartitionIndexes: []int32{0}}}}}
		return do(t, cl, req, 8, kafkamsg.NewOffsetFetchResponse()).Groups[0].Topics[0].Partitions[0]
	}
	addOffsets := func() int16 {
		req := kafkamsg.NewAddOffsetsToTxnRequest()
		req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.GroupID = p.id, p.pid, p.epoch, "g"
		return do(t, cl, req, 3, kafkamsg.NewAddOffsetsToTxnResponse()).ErrorCode
	}

	assert.Equal(t, kerrors.InvalidTxnState.Code, txnCommit(5), "TxnOffsetCommit needs AddOffsetsToTxn first")
	require.Equal(t, codeNone, addOffsets())
	require.Equal(t, codeNone, txnCommit(5))
	pending := fetch()
	assert.Equal(t, kerrors.UnstableOffsetCommit.Code, pending.ErrorCode, "require_stable sees the pending offset")
	assert.Equal(t, int64(-1), pending.CommittedOffset)
	require.Equal(t, codeNone, p.end(true))
	assert.Equal(t, int64(5), fetch().CommittedOffset, "EndTxn commit applies the offsets")

	require.Equal(t, codeNone, addOffsets())
	require.Equal(t, codeNone, txnCommit(9))
	require.Equal(t, codeNone, p.end(false))
	committed := fetch()
	assert.Equal(t, codeNone, committed.ErrorCode)
	assert.Equal(t, int64(5), committed.CommittedOffset, "an abort drops them")
}

func TestTransactionTimeoutAborts(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "crashed")
	createTopic(t, cl, "slow", 1)
	p := initTxn(t, cl, "tid") // 60 s timeout
	require.Equal(t, codeNone, p.addPartition("slow", 0))
	require.Equal(t, codeNone, p.produce("slow", "never").ErrorCode)

	tb.txns.abortExpired(time.Now().Add(30 * time.Second))
	assert.Equal(t, int64(0), fetchCommitted(t, cl, "slow").LastStableOffset, "within its timeout the transaction stays open")
	tb.txns.abortExpired(time.Now().Add(2 * time.Minute))
	done := fetchCommitted(t, cl, "slow")
	assert.Equal(t, done.HighWatermark, done.LastStableOffset)
	assert.Len(t, done.AbortedTransactions, 1)
	assert.Equal(t, kerrors.ProducerFenced.Code, p.end(true), "the timed-out producer is fenced")
}
