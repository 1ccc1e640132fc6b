package main

import (
	"crypto/rand"
	"errors"
	"log"
	"math"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
)

// Config is the broker's configuration: what the flags set.
type Config struct {
	NodeID     int32 // this node's id (a single-node cluster)
	Partitions int32 // partitions of auto-created topics and CreateTopics' default
	AutoCreate bool  // create unknown topics on Metadata and Produce when asked
	// InitialRebalanceDelay holds back a new group's first rebalance so that
	// members starting together join one generation (Kafka's
	// group.initial.rebalance.delay.ms).
	InitialRebalanceDelay time.Duration
	// MaxMessageBytes is the largest record batch a Produce may carry,
	// log overhead included (Kafka's message.max.bytes); 0 means Kafka's
	// default, 1 MiB + 12.
	MaxMessageBytes int
	// TimestampBeforeMaxMs and TimestampAfterMaxMs bound how far a record's
	// CreateTime may lie before and after the broker's clock (Kafka's
	// message.timestamp.before.max.ms and .after.max.ms); 0 means Kafka
	// 4.0's defaults: unbounded before, one hour after.
	TimestampBeforeMaxMs int64
	TimestampAfterMaxMs  int64
	// FetchMaxBytes caps the records of one Fetch answer whatever the
	// client asks (Kafka's broker config fetch.max.bytes), the first batch
	// aside (KIP-74); 0 means defaultFetchMaxBytes.
	FetchMaxBytes int
	// DataDir, when set, keeps the topics and each partition's log on
	// disk there (-data-dir) and recovers them on start; SegmentBytes is
	// where a partition's log rolls to a new file (0: 1 GiB).
	DataDir      string
	SegmentBytes int64
	// KafkaRelease, when set ("4.0.0", "4.1.1"), serves only the versions
	// that release's broker serves (release.go); "" serves every version
	// the generated package implements.
	KafkaRelease string
	Logger       *log.Logger
}

// defaultFetchMaxBytes is 4 MiB: an answer is held about twice while it is
// written (the records gathered and the encoded frame), so 20 consumers
// that never read hold about 160 MiB. (Kafka's default is 55 MiB.)
const defaultFetchMaxBytes = 4 << 20

// produceLimits are the limits Produce holds records to, defaults filled in.
func (cfg *Config) produceLimits() produceLimits {
	lim := produceLimits{maxMessageBytes: cfg.MaxMessageBytes,
		timestampBeforeMaxMs: cfg.TimestampBeforeMaxMs, timestampAfterMaxMs: cfg.TimestampAfterMaxMs}
	if lim.maxMessageBytes <= 0 {
		lim.maxMessageBytes = defaultMaxMessageBytes
	}
	if lim.timestampBeforeMaxMs <= 0 {
		lim.timestampBeforeMaxMs = math.MaxInt64
	}
	if lim.timestampAfterMaxMs <= 0 {
		lim.timestampAfterMaxMs = defaultTimestampAfterMaxMs
	}
	return lim
}

// clusterID is the cluster id Metadata and DescribeCluster answer.
const clusterID = "kafkagen-example-broker"

// Broker is a single-node Kafka broker's state (its logs in memory, and
// with Config.DataDir on disk too). Its handlers are
// called by the server, one request at a time per connection and
// concurrently across connections; one lock guards the logs and topics,
// groups and transactions have their own.
type Broker struct {
	cfg           Config
	limits        produceLimits
	fetchMaxBytes int
	segmentBytes  int64
	versions      versionTable // served and advertised versions
	host          string       // advertised host and port: the listener's bound address
	port          int32

	mu       sync.Mutex
	topics   map[string]*topic
	topicIDs map[runtime.UUID]*topic
	appended chan struct{} // closed and replaced on every append: wakes long polls

	groups *groupCoordinator
	txns   *txnCoordinator
}

// NewBroker returns a broker advertising host:port: empty, or with
// cfg.DataDir what its data folder holds.
func NewBroker(cfg Config, host string, port int32) (*Broker, error) {
	if cfg.Partitions < 1 {
		cfg.Partitions = 1
	}
	if cfg.Logger == nil {
		cfg.Logger = log.Default()
	}
	if cfg.FetchMaxBytes <= 0 {
		cfg.FetchMaxBytes = defaultFetchMaxBytes
	}
	if cfg.SegmentBytes <= 0 {
		cfg.SegmentBytes = defaultSegmentBytes
	}
	b := &Broker{
		cfg:           cfg,
		limits:        cfg.produceLimits(),
		fetchMaxBytes: cfg.FetchMaxBytes,
		segmentBytes:  cfg.SegmentBytes,
		host:          host,
		port:          port,
		topics:        map[string]*topic{},
		topicIDs:      map[runtime.UUID]*topic{},
		appended:      make(chan struct{}),
	}
	versions, err := newVersionTable(cfg.KafkaRelease)
	if err != nil {
		return nil, err
	}
	b.versions = versions
	b.groups = newGroupCoordinator(cfg.InitialRebalanceDelay)
	b.txns = newTxnCoordinator(b)
	if cfg.DataDir != "" {
		if err := b.openDataDir(); err != nil {
			b.Close()
			return nil, err
		}
	}
	return b, nil
}

// Close stops the broker's timers and, with a data folder, syncs and
// closes its files.
func (b *Broker) Close() error {
	b.groups.close()
	b.mu.Lock()
	defer b.mu.Unlock()
	var errs []error
	for _, t := range b.topics {
		for _, l := range t.partitions {
			if l.file != nil {
				errs = append(errs, l.file.close())
			}
		}
	}
	return errors.Join(errs...)
}

// notifyAppend wakes every Fetch waiting for data. b.mu must be held.
func (b *Broker) notifyAppend() {
	close(b.appended)
	b.appended = make(chan struct{})
}

// newUUID returns a random version-4 UUID, as Kafka's Uuid.randomUuid.
func newUUID() runtime.UUID {
	var u runtime.UUID
	for u == (runtime.UUID{}) {
		_, _ = rand.Read(u[:])
		u[6] = u[6]&0x0f | 0x40
		u[8] = u[8]&0x3f | 0x80
	}
	return u
}
