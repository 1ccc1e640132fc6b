package main

import (
	"math"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The transaction coordinator: producer ids for idempotent and transactional
// producers, the partitions and groups of each open transaction, and the
// commit or abort markers EndTxn writes into those partitions.

// maxTransactionTimeout is Kafka's transaction.max.timeout.ms default.
const maxTransactionTimeout = 15 * time.Minute

// firstProducerID is where producer ids start; any value works, a visible
// one makes logs easier to read.
const firstProducerID = 1000

// transaction is one transactional id's state.
type transaction struct {
	id         string
	producerID int64
	epoch      int16
	timeout    time.Duration
	ongoing    bool
	started    time.Time
	partitions map[topicPartition]bool
	groups     map[string]bool
	lastCommit bool // how the last transaction ended, to answer a retried EndTxn
	ended      bool // a transaction has ended and none began since
}

type txnCoordinator struct {
	b              *Broker
	mu             sync.Mutex
	nextProducerID int64
	txns           map[string]*transaction
}

func newTxnCoordinator(b *Broker) *txnCoordinator {
	return &txnCoordinator{b: b, nextProducerID: firstProducerID, txns: map[string]*transaction{}}
}

// producerIDResult is InitProducerId's answer.
type producerIDResult struct {
	errorCode  int16
	producerID int64
	epoch      int16
}

// initProducerID gives an idempotent producer (no transactional id) a new
// producer id, and a transactional one its id with the epoch bumped, aborting
// the transaction it left open. producerID/epoch are what a v3+ client
// already holds (-1 when none).
func (c *txnCoordinator) initProducerID(txnID string, transactional bool, timeoutMs int32, producerID int64, epoch int16) producerIDResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !transactional {
		return producerIDResult{producerID: c.newProducerID()}
	}
	if txnID == "" { // Kafka refuses an empty (rather than null) transactional id
		return producerIDResult{errorCode: kerrors.InvalidRequest.Code, producerID: -1, epoch: -1}
	}
	timeout := time.Duration(timeoutMs) * time.Millisecond
	if timeoutMs <= 0 || timeout > maxTransactionTimeout {
		return producerIDResult{errorCode: kerrors.InvalidTransactionTimeout.Code, producerID: -1, epoch: -1}
	}
	t := c.txns[txnID]
	if t == nil {
		t = &transaction{id: txnID, producerID: c.newProducerID(), epoch: 0, timeout: timeout}
		c.txns[txnID] = t
		return producerIDResult{producerID: t.producerID, epoch: t.epoch}
	}
	if producerID >= 0 && (producerID != t.producerID || epoch != t.epoch) {
		return producerIDResult{errorCode: kerrors.ProducerFenced.Code, producerID: -1, epoch: -1}
	}
	if t.ongoing {
		c.complete(t, false)
	}
	t.timeout = timeout
	if t.epoch == math.MaxInt16-1 { // the epoch is exhausted: a new producer id
		t.producerID, t.epoch = c.newProducerID(), 0
	} else {
		t.epoch++
	}
	t.ended = false
	return producerIDResult{producerID: t.producerID, epoch: t.epoch}
}

func (c *txnCoordinator) newProducerID() int64 {
	id := c.nextProducerID
	c.nextProducerID++
	return id
}

// check finds the transaction of a request and checks the producer holds
// its current id and epoch. c.mu must be held.
func (c *txnCoordinator) check(txnID string, producerID int64, epoch int16) (*transaction, int16) {
	t := c.txns[txnID]
	switch {
	case t == nil || t.producerID != producerID:
		return nil, kerrors.InvalidProducerIDMapping.Code
	case epoch != t.epoch:
		return nil, kerrors.ProducerFenced.Code
	}
	return t, codeNone
}

// begin marks a transaction open when its first partition or group joins.
func (t *transaction) begin() {
	if !t.ongoing {
		t.ongoing, t.ended, t.started = true, false, time.Now()
		t.partitions, t.groups = map[topicPartition]bool{}, map[string]bool{}
	}
}

// addPartitions adds partitions to a transaction (AddPartitionsToTxn). A
// partition that does not exist fails with UNKNOWN_TOPIC_OR_PARTITION and
// the others with OPERATION_NOT_ATTEMPTED, as Kafka does; with verifyOnly the
// partitions must already be in the transaction.
func (c *txnCoordinator) addPartitions(txnID string, producerID int64, epoch int16, parts []topicPartition, verifyOnly bool) []int16 {
	c.mu.Lock()
	defer c.mu.Unlock()
	codes := make([]int16, len(parts))
	t, code := c.check(txnID, producerID, epoch)
	if code == codeNone {
		missing := false
		for i, tp := range parts {
			if !c.b.partitionExists(tp) {
				codes[i], missing = kerrors.UnknownTopicOrPartition.Code, true
			}
		}
		if missing {
			for i := range codes {
				if codes[i] == codeNone {
					codes[i] = kerrors.OperationNotAttempted.Code
				}
			}
			return codes
		}
	}
	for i, tp := range parts {
		switch {
		case code != codeNone:
			codes[i] = code
		case verifyOnly:
			if !t.ongoing || !t.partitions[tp] {
				codes[i] = kerrors.InvalidTxnState.Code
			}
		default:
			t.begin()
			t.partitions[tp] = true
		}
	}
	return codes
}

// addGroup adds a group's offsets to a transaction (AddOffsetsToTxn).
func (c *txnCoordinator) addGroup(txnID string, producerID int64, epoch int16, groupID string) int16 {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, code := c.check(txnID, producerID, epoch)
	if code != codeNone {
		return code
	}
	if groupID == "" {
		return kerrors.InvalidGroupID.Code
	}
	t.begin()
	t.groups[groupID] = true
	return codeNone
}

// checkOffsets checks a TxnOffsetCommit belongs to the producer's open
// transaction and that AddOffsetsToTxn added its group.
func (c *txnCoordinator) checkOffsets(txnID string, producerID int64, epoch int16, groupID string) int16 {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, code := c.check(txnID, producerID, epoch)
	switch {
	case code != codeNone:
		return code
	case !t.ongoing || !t.groups[groupID]:
		return kerrors.InvalidTxnState.Code
	}
	return codeNone
}

// producingLocked checks a transactional batch: its producer's transaction
// must be open, hold the partition, and the epoch must be current. c.mu must
// be held, and kept until the batch is appended (see producePartition).
func (c *txnCoordinator) producingLocked(producerID int64, epoch int16, tp topicPartition) int16 {
	for _, t := range c.txns {
		if t.producerID != producerID {
			continue
		}
		switch {
		case epoch < t.epoch:
			return kerrors.InvalidProducerEpoch.Code
		case epoch > t.epoch:
			return kerrors.InvalidProducerIDMapping.Code
		case !t.ongoing || !t.partitions[tp]:
			return kerrors.InvalidTxnState.Code
		}
		return codeNone
	}
	return kerrors.InvalidProducerIDMapping.Code
}

// end commits or aborts the open transaction (EndTxn). Ending one that
// already ended the same way is the answer to a retry and succeeds.
func (c *txnCoordinator) end(txnID string, producerID int64, epoch int16, commit bool) int16 {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, code := c.check(txnID, producerID, epoch)
	switch {
	case code != codeNone:
		return code
	case !t.ongoing && t.ended && t.lastCommit == commit:
		return codeNone
	case !t.ongoing:
		return kerrors.InvalidTxnState.Code
	}
	c.complete(t, commit)
	return codeNone
}

// complete writes the transaction's markers into every partition it wrote
// to, and commits or drops its group offsets. c.mu must be held.
func (c *txnCoordinator) complete(t *transaction, commit bool) {
	for tp := range t.partitions {
		c.b.writeMarker(tp, t.producerID, t.epoch, commit)
	}
	for g := range t.groups {
		c.b.groups.endTxn(g, t.producerID, commit)
	}
	t.ongoing, t.ended, t.lastCommit = false, true, commit
	t.partitions, t.groups = nil, nil
	action := "aborted"
	if commit {
		action = "committed"
	}
	c.b.cfg.Logger.Printf("transaction %q (producer %d epoch %d) %s", t.id, t.producerID, t.epoch, action)
}

// abortExpired aborts open transactions older than their timeout, as
// Kafka's coordinator does, so a crashed producer does not hold back
// read_committed consumers for ever.
func (c *txnCoordinator) abortExpired(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.txns {
		if t.ongoing && now.Sub(t.started) > t.timeout {
			c.complete(t, false)
			if t.epoch < math.MaxInt16-1 {
				t.epoch++ // fences the producer, as Kafka's timeout abort does
			}
		}
	}
}
