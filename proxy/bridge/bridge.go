package bridge

import (
	"fmt"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// The api keys the bridge knows by name.
const (
	apiProduce              int16 = 0
	apiFetch                int16 = 1
	apiListOffsets          int16 = 2
	apiOffsetCommit         int16 = 8
	apiOffsetFetch          int16 = 9
	apiJoinGroup            int16 = 11
	apiCreateTopics         int16 = 19
	apiDeleteTopics         int16 = 20
	apiOffsetForLeaderEpoch int16 = 23
	apiDescribeConfigs      int16 = 32
)

// The apis whose v0 differs from v1 only in who applies a quota.
var throttledAPIs = []int16{
	29, 30, 31, // DescribeAcls, CreateAcls, DeleteAcls
	34, 35, // AlterReplicaLogDirs, DescribeLogDirs
	38, 39, 40, 41, // Create-, Renew-, Expire-, DescribeDelegationToken
}

// produceV2Format is the first Produce version with record batches v2: a
// broker that serves it gets no older one (KAFKA-18659: Kafka 4 advertises
// Produce from v0 and refuses v0-2).
const produceV2Format int16 = 3

// adapter translates one api where its versions differ in meaning.
type adapter interface {
	// request turns req (decoded at from) into a request at to, in place,
	// and returns what response needs.
	request(c *connBridge, req reflect.Value, from, to int16) (any, error)
	// response turns resp (decoded at from) into one at to, in place.
	response(c *connBridge, resp reflect.Value, from, to int16, state any) error
}

// generic translates an api whose old versions mean what the new ones do:
// the generated codec does all of it.
type generic struct{}

func (generic) request(*connBridge, reflect.Value, int16, int16) (any, error) { return nil, nil }
func (generic) response(*connBridge, reflect.Value, int16, int16, any) error  { return nil }

// adapters are the apis the bridge translates, each from the package's
// lowest version up.
var adapters = map[int16]adapter{
	apiProduce:              produceAdapter{},
	apiFetch:                fetchAdapter{},
	apiListOffsets:          listOffsetsAdapter{},
	apiOffsetCommit:         offsetCommitAdapter{},
	apiOffsetFetch:          generic{},
	apiJoinGroup:            joinGroupAdapter{},
	apiCreateTopics:         generic{},
	apiDeleteTopics:         generic{},
	apiOffsetForLeaderEpoch: generic{},
	apiDescribeConfigs:      describeConfigsAdapter{},
}

func init() {
	for _, key := range throttledAPIs {
		adapters[key] = throttledAdapter{}
	}
}

// Bridge is a proxy.Bridge over a generated package.
type Bridge struct {
	newRequest, newResponse func(int16) runtime.APIMessage
	// MaxDecompressed bounds what one compressed wrapper or batch may
	// decompress to while converting (records.DefaultLimit when 0).
	MaxDecompressed int

	mu     sync.Mutex
	counts map[[3]int16]*atomic.Int64 // key, from, to
	// sleep holds a throttled answer back (time.Sleep; tests replace it).
	sleep func(time.Duration)
}

var _ proxy.Bridge = (*Bridge)(nil)

// New makes a bridge translating with a generated package's NewRequest and
// NewResponse (the proxy's).
func New(newRequest, newResponse func(int16) runtime.APIMessage) *Bridge {
	return &Bridge{newRequest: newRequest, newResponse: newResponse, counts: map[[3]int16]*atomic.Int64{}, sleep: time.Sleep}
}

// Lowest is the package's lowest version of a translated api.
func (b *Bridge) Lowest(key int16) (int16, bool) {
	if _, ok := adapters[key]; !ok {
		return 0, false
	}
	req, resp := b.newRequest(key), b.newResponse(key)
	if req == nil || resp == nil {
		return 0, false
	}
	return max(req.MinVersion(), resp.MinVersion()), true
}

// Conn starts the bridge of one connection to a broker serving broker.
func (b *Bridge) Conn(broker []wire.VersionRange) proxy.BridgeConn {
	c := &connBridge{b: b, broker: map[int16]wire.VersionRange{}}
	for _, r := range broker {
		if r.APIKey == apiProduce && r.MaxVersion >= produceV2Format {
			r.MinVersion = max(r.MinVersion, produceV2Format)
		}
		c.broker[r.APIKey] = r
	}
	c.conv.Decompressor.Limit = b.MaxDecompressed
	return c
}

// count records one translated request.
func (b *Bridge) count(key, from, to int16) {
	k := [3]int16{key, from, to}
	b.mu.Lock()
	n, ok := b.counts[k]
	if !ok {
		n = new(atomic.Int64)
		b.counts[k] = n
	}
	b.mu.Unlock()
	n.Add(1)
}

// Translation is how many requests of one api were translated from one
// version to another.
type Translation struct {
	APIKey   int16
	From, To int16
	Requests int64
}

func (t Translation) String() string {
	return fmt.Sprintf("key %d v%d->v%d: %d", t.APIKey, t.From, t.To, t.Requests)
}

// Translations lists the requests translated so far, by api and version.
func (b *Bridge) Translations() []Translation {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Translation, 0, len(b.counts))
	for k, n := range b.counts {
		out = append(out, Translation{APIKey: k[0], From: k[1], To: k[2], Requests: n.Load()})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].APIKey != out[j].APIKey {
			return out[i].APIKey < out[j].APIKey
		}
		return out[i].From < out[j].From
	})
	return out
}
