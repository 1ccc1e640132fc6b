package proxy

import (
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
)

// tenantEntities are the names a tenant's prefix applies to.
var tenantEntities = [...]runtime.EntityType{runtime.EntityTopicName, runtime.EntityGroupID, runtime.EntityTransactionalID}

// Tenant is a filter for topic-prefix multi-tenancy: the client sees
// `orders`, the broker stores `tenant1.orders`. Every topic name, group id
// and transactional id of a request gets the prefix, through the generated
// VisitEntities (runtime.Entities), and loses it in the response; names of
// other tenants are removed from responses by Hide, and a response still
// naming one closes the connection rather than show it.
//
// Topic ids (KIP-516) cannot carry a prefix: a request may name only the
// ids the tenant's own answers have shown it, and one naming another is
// refused before it reaches the broker (tenant_ids.go).
//
// The specs mark most names with an entity type; the few they do not
// (FindCoordinator's keys, a DescribeConfigs resource name whose resource
// type is 2, a topic) and the removal of array elements need typed code for
// the generated package, which Names and Hide hold.
type Tenant struct {
	Prefix string
	// Names, when set, calls visit for the names of m that VisitEntities
	// does not reach, with the entity type they name.
	Names func(m runtime.APIMessage, version int16, visit func(t runtime.EntityType, name *string))
	// Hide, when set, removes from a response the elements naming an
	// entity for which visible is false (another tenant's, or the broker's
	// own such as __consumer_offsets), and reports whether it removed any.
	Hide func(m runtime.APIMessage, version int16, visible func(t runtime.EntityType, name string) bool) bool
	// Decode, when set, reports whether the requests (request true) or
	// responses of apiKey at version may hold names; by default all may.
	// Fetch from v13, which names topics by id, is the one that matters.
	Decode func(apiKey, version int16, request bool) bool
	// RefuseIDs, when set, builds the answer to a request naming a topic
	// id the tenant was not shown: the request's response with code
	// (UNKNOWN_TOPIC_ID) for each topic, as the broker answers an id it
	// does not know. Nil, or a nil answer, closes the connection instead.
	RefuseIDs func(req runtime.APIMessage, version int16, code int16) runtime.APIMessage
	// Check, when set, sees each request first: an error refuses it (the
	// connection is closed), for what a prefix cannot make safe, such as
	// a topic regex that would match other tenants' topics.
	Check func(req runtime.APIMessage, version int16) error

	ids topicIDs
}

// NewTenant prefixes names with prefix.
func NewTenant(prefix string) *Tenant { return &Tenant{Prefix: prefix} }

// Wants the messages that may hold names.
func (t *Tenant) Wants(key, version int16) (requests, responses bool) {
	if t.Decode == nil {
		return true, true
	}
	return t.Decode(key, version, true), t.Decode(key, version, false)
}

// Request refuses a request naming a topic id the tenant was not shown, and
// adds the prefix to every name of the others.
func (t *Tenant) Request(x *Exchange) error {
	if t.Check != nil {
		if err := t.Check(x.Request, x.Header.APIVersion); err != nil {
			return err
		}
	}
	if id, foreign := t.foreignID(x.Request, x.Header.APIVersion); foreign {
		return t.refuseID(x, id)
	}
	if tv := t.walk(x.Request, x.Header.APIVersion, false); tv.done() {
		x.Edited()
	}
	return nil
}

// Response removes other tenants' names and the prefix from the rest.
func (t *Tenant) Response(x *Exchange) error {
	// One pooled visit for both: its visible func is bound once, where a
	// method value of t would be allocated per response.
	tv := newTenantVisit(t)
	if t.Hide != nil && t.Hide(x.Response, x.ResponseVersion, tv.visible) {
		x.Edited()
	}
	tv.strip = true
	tv.walk(x.Response, x.ResponseVersion)
	foreign := tv.foreign
	if tv.done() {
		x.Edited()
	}
	if foreign != "" {
		// Relaying it would show the client a name that is not its
		// tenant's.
		return fmt.Errorf("%s v%d names %q, which is not the tenant's (prefix %q), and Tenant.Hide did not remove it",
			x.Response.SpecName(), x.ResponseVersion, foreign, t.Prefix)
	}
	t.learnIDs(x)
	return nil
}

// walk prefixes every name of m (strip false) or removes the prefix from
// them (strip true), noting the first name without it; the caller reads
// the result and calls done.
func (t *Tenant) walk(m runtime.APIMessage, version int16, strip bool) *tenantVisit {
	tv := newTenantVisit(t)
	tv.strip = strip
	tv.walk(m, version)
	return tv
}
