package acl

import (
	"strings"
	"sync"

	"github.com/kafkagen/kafkagen/runtime"
)

// Topic ids for authorization. Kafka's broker authorizes a request that
// names a topic by id on the name the id resolves to, and answers an id it
// does not know UNKNOWN_TOPIC_ID (docs/protocol.md, "Authorization"). The
// proxy knows the ids the broker has shown its clients: the answers that
// pair a topic's name with its id (Typed.LearnIDs), whoever asked, since an
// id names one topic for every connection.

// maxTopicNames bounds the ids the filter keeps: past it no more are
// learned (a request naming one gets UNKNOWN_TOPIC_ID, as if never seen),
// so that topics created without end cannot grow the proxy's memory without
// end.
const maxTopicNames = 1 << 20

// TopicNames maps the topic ids learned from the broker's answers to their
// names as the client sees them; shared by all connections of a Filter.
type TopicNames struct {
	mu    sync.RWMutex
	names map[runtime.UUID]string
	limit int // maxTopicNames when 0
}

// Learn records that id names the topic name. The zero id (Kafka's "no
// id") and the empty name are not learned; name is cloned only when it is
// new, so an answer repeating what is known allocates nothing.
func (n *TopicNames) Learn(id runtime.UUID, name string) {
	if id == (runtime.UUID{}) || name == "" {
		return
	}
	if known, ok := n.Name(id); ok && known == name {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.names == nil {
		n.names = map[runtime.UUID]string{}
	}
	limit := n.limit
	if limit == 0 {
		limit = maxTopicNames
	}
	if _, ok := n.names[id]; ok || len(n.names) < limit {
		n.names[id] = strings.Clone(name)
	}
}

// Name returns the name of the topic id names, if it was learned.
func (n *TopicNames) Name(id runtime.UUID) (string, bool) {
	n.mu.RLock()
	defer n.mu.RUnlock()
	name, ok := n.names[id]
	return name, ok
}

// Len is how many ids are known.
func (n *TopicNames) Len() int {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return len(n.names)
}
