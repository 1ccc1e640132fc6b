package proxy

import (
	"fmt"
	"sync"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// Topic-id isolation for Tenant. Since KIP-516 requests may name a topic by
// its id instead of its name (Fetch 13+, DeleteTopics 6+, Metadata 10+,
// Produce 13+, the share apis...), and a prefix cannot be put on an id. So
// a tenant may use only the ids the broker has shown it: those in its own
// answers that list topics by name beside their ids, after other tenants'
// topics were removed from them. A request naming any other id is refused
// before it reaches the broker. docs/protocol.md, "Topic ids".

// idLearningAPIs are the api keys whose responses pair a topic's name with
// its id: Metadata (3, v10+), CreateTopics (19, v7+) and
// DescribeTopicPartitions (75). After Hide and the name check, every id
// left in them is the tenant's.
var idLearningAPIs = [...]int16{3, 19, 75}

// PairsTopicIDs reports whether the responses of api key pair topic names
// with their ids (the acl filter learns from the same answers).
func PairsTopicIDs(key int16) bool {
	for _, k := range idLearningAPIs {
		if key == k {
			return true
		}
	}
	return false
}

// maxTenantIDs bounds the ids a tenant keeps: past it no more are learned
// (a request naming one is refused, as if never seen), so that a tenant
// creating topics without end cannot grow the proxy's memory without end.
const maxTenantIDs = 1 << 20

// topicIDs is the set of topic ids a tenant has seen, shared by all its
// connections.
type topicIDs struct {
	mu   sync.RWMutex
	seen map[runtime.UUID]struct{}
}

func (s *topicIDs) add(id runtime.UUID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[runtime.UUID]struct{}{}
	}
	if len(s.seen) < maxTenantIDs {
		s.seen[id] = struct{}{}
	}
}

func (s *topicIDs) has(id runtime.UUID) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.seen[id]
	return ok
}

// KnowsTopicID reports whether the tenant has been shown the topic id.
func (t *Tenant) KnowsTopicID(id runtime.UUID) bool { return t.ids.has(id) }

// learnIDs keeps the topic ids of a response that lists topics by name.
func (t *Tenant) learnIDs(x *Exchange) {
	e, ok := x.Response.(runtime.Entities)
	if !PairsTopicIDs(x.Header.APIKey) || !ok {
		return
	}
	tv := newTenantVisit(t)
	tv.learn = true
	e.VisitEntities(x.ResponseVersion, runtime.EntityTopicID, &tv.ids)
	tv.done()
}

// foreignID returns the first topic id of a request that the tenant has not
// been shown. The zero id is Kafka's "no id" (a topic named by name), and
// passes.
func (t *Tenant) foreignID(m runtime.APIMessage, version int16) (runtime.UUID, bool) {
	e, ok := m.(runtime.Entities)
	if !ok {
		return runtime.UUID{}, false
	}
	tv := newTenantVisit(t)
	e.VisitEntities(version, runtime.EntityTopicID, &tv.ids)
	id, found := tv.unknown, tv.found
	tv.done()
	return id, found
}

// refuseID answers a request that names a topic id the tenant was not shown
// as the broker answers an unknown id, with RefuseIDs' typed answer, or
// else closes the connection with UNKNOWN_TOPIC_ID. Either way the request
// does not reach the broker.
func (t *Tenant) refuseID(x *Exchange, id runtime.UUID) error {
	// A Produce with acks 0 gets no answer: the connection is closed,
	// as Kafka closes it when such a Produce fails.
	if t.RefuseIDs != nil && !x.Unanswered {
		if resp := t.RefuseIDs(x.Request, x.Header.APIVersion, kerrors.UnknownTopicID.Code); resp != nil {
			x.Answer(resp)
			return nil
		}
	}
	return fmt.Errorf("%s v%d names topic id %x, which the tenant (prefix %q) was never shown: %w",
		x.Request.SpecName(), x.Header.APIVersion, id, t.Prefix, kerrors.UnknownTopicID)
}
