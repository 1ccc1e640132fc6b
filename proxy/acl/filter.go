package acl

import (
	"fmt"
	"sync"

	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// PrincipalFunc gives the principal of the connection an exchange is on:
// what the identity layer authenticated (TLS, SASL at the proxy) from
// x.Conn, or, until one is plugged in, whatever the caller decides (a fixed
// principal per listener; the header's client id in tests).
type PrincipalFunc func(x *proxy.Exchange) string

// Typed is the part of authorization that needs a generated package's
// types: the names the specs do not mark, the lists to hide, and the
// answers the proxy makes.
type Typed struct {
	// NewResponse is the generated package's (required).
	NewResponse func(apiKey int16) runtime.APIMessage
	// Names visits the names VisitEntities does not reach (as
	// proxy.Tenant.Names).
	Names func(m runtime.APIMessage, version int16, visit func(t runtime.EntityType, name *string))
	// Hide removes from a response the elements naming resources for
	// which visible is false (as proxy.Tenant.Hide).
	Hide func(m runtime.APIMessage, version int16, visible func(t runtime.EntityType, name string) bool) bool
	// Refuse builds the answer refusing every part of req with code, or
	// nil to leave it to the response's top-level error code.
	Refuse func(req runtime.APIMessage, version int16, code int16) runtime.APIMessage
	// Split removes from req the parts naming a resource of entity type
	// t for which refused is true, and returns a response of the api
	// holding those parts answered with code, and whether nothing is left
	// to forward; a nil response means the api is not answered per part
	// for t, and the whole request is refused.
	Split func(req runtime.APIMessage, version int16, t runtime.EntityType, refused func(name string) bool, code int16) (refusals runtime.APIMessage, nothingLeft bool)
	// Merge adds the parts of refusals to resp, the broker's answer to
	// what was forwarded (or another refusal).
	Merge func(resp, refusals runtime.APIMessage, version int16)
	// AutoCreate returns the flag by which req asks the broker to create
	// the topics it names, or nil when it has none at version.
	AutoCreate func(req runtime.APIMessage, version int16) *bool
	// LearnIDs visits the topic ids of a response of the apis that pair
	// them with names (proxy.PairsTopicIDs), each with its name.
	LearnIDs func(resp runtime.APIMessage, version int16, learn func(id runtime.UUID, name string))
	// RequestIDs visits the id of each part of req naming a topic by id
	// only, at the versions from Rule.ByIDFrom: the parts Kafka authorizes
	// (not Fetch's forgotten topics).
	RequestIDs func(req runtime.APIMessage, version int16, visit func(id runtime.UUID))
	// SplitIDs is Split for the parts RequestIDs visits, refused told by
	// their ids; the refusals carry the ids.
	SplitIDs func(req runtime.APIMessage, version int16, refused func(id runtime.UUID) bool, code int16) (refusals runtime.APIMessage, nothingLeft bool)
	// HideIDs is Hide for the topics of an answer listed by id only (at
	// the versions from Rule.ByIDFrom of an api hiding what may not be
	// described), which Hide leaves.
	HideIDs func(m runtime.APIMessage, version int16, visible func(id runtime.UUID) bool) bool
}

// Filter authorizes each request as Kafka's broker would (APIRules), with
// the names the client sent: put it before the Tenant filter.
type Filter struct {
	auth      *Authorizer
	principal PrincipalFunc
	typed     Typed
	checkers  sync.Pool // *checker
	ids       TopicNames
	learn     func(runtime.UUID, string) // ids.Learn, bound once
	// OnRefuse, when set, is told of each request refused whole or in
	// part, with the error code (for metrics).
	OnRefuse func(x *proxy.Exchange, code int16)
}

// NewFilter authorizes by auth the requests of the connections whose
// principal principal gives.
func NewFilter(auth *Authorizer, principal PrincipalFunc, typed Typed) (*Filter, error) {
	if auth == nil || principal == nil || typed.NewResponse == nil {
		return nil, fmt.Errorf("acl: NewFilter needs an Authorizer, a PrincipalFunc and Typed.NewResponse")
	}
	f := &Filter{auth: auth, principal: principal, typed: typed}
	f.learn = f.ids.Learn
	f.checkers.New = func() any {
		c := &checker{f: f}
		c.v.String = c.visit
		c.names = c.visitTyped
		c.id = c.visitID
		c.visible = c.describable
		c.visibleID = c.describableID
		return c
	}
	return f, nil
}

// Wants every request that needs a check, and the responses it may have to
// merge refusals into or hide resources from.
func (f *Filter) Wants(key, _ int16) (requests, responses bool) {
	rule, ok := APIRules[key]
	if !ok {
		return true, false
	}
	if rule.Open {
		return false, false
	}
	splits := f.typed.Split != nil && len(rule.Checks) > 0
	learns := f.typed.LearnIDs != nil && proxy.PairsTopicIDs(key)
	return true, rule.HideUndescribed || splits || learns
}

// TopicNames are the topic ids the filter learned, with their names.
func (f *Filter) TopicNames() *TopicNames { return &f.ids }

// LimitVersions advertises no version naming topics by id that is not
// resolved, nor the versions only brokers send.
func (f *Filter) LimitVersions(key, lo, hi int16) (int16, int16, bool) {
	rule, ok := APIRules[key]
	if from, refused := f.refuseIDsFrom(rule); ok && refused {
		hi = min(hi, from-1)
	}
	if ok && rule.SuperFrom > 0 {
		hi = min(hi, rule.SuperFrom-1)
	}
	return lo, hi, lo <= hi
}

// Request checks a request, and forwards it, forwards what is allowed of
// it, or answers it with the refusal.
func (f *Filter) Request(x *proxy.Exchange) error {
	principal := f.principal(x)
	if f.auth.IsSuperUser(principal) {
		return nil
	}
	key, version := x.Header.APIKey, x.Header.APIVersion
	rule, ok := APIRules[key]
	idsFrom, refuseIDs := f.refuseIDsFrom(rule)
	switch {
	case !ok, rule.SuperFrom > 0 && version >= rule.SuperFrom, refuseIDs && version >= idsFrom:
		return f.refuse(x, kerrors.ClusterAuthorizationFailed.Code)
	case key == InitProducerIDKey:
		return f.initProducerID(x, principal)
	}
	c := f.checkers.Get().(*checker)
	defer f.checkers.Put(c)
	c.principal = principal
	var refusals []runtime.APIMessage
	for _, check := range rule.Checks {
		if check.OrCluster && f.auth.Authorize(principal, ResourceCluster, ClusterName, check.Op) {
			continue
		}
		if check.Entity == runtime.EntityUnknown {
			if !f.auth.Authorize(principal, ResourceCluster, ClusterName, check.Op) {
				return f.refuse(x, kerrors.ClusterAuthorizationFailed.Code)
			}
			continue
		}
		if from, byID := rule.byID(); check.Entity == runtime.EntityTopicName && byID && version >= from {
			if done, err := f.checkIDs(x, c, check, &refusals); done || err != nil {
				return err
			}
		}
		if c.count(x.Request, version, check) == 0 {
			continue
		}
		r, nothingLeft, err := f.split(x, principal, check)
		if r == nil || err != nil {
			return err
		}
		if f.addRefusals(x, &refusals, r, nothingLeft) {
			return nil
		}
	}
	if rule.AutoCreate && f.noAutoCreate(x, c) {
		x.Edited()
	}
	if refusals != nil {
		x.Edited()
		x.SetState(refusals)
	}
	return nil
}

// addRefusals keeps the refusals r of a part of the request, or when
// nothing is left to forward answers the request with them and the ones
// before, and reports whether it did.
func (f *Filter) addRefusals(x *proxy.Exchange, refusals *[]runtime.APIMessage, r runtime.APIMessage, nothingLeft bool) bool {
	*refusals = append(*refusals, r)
	if !nothingLeft {
		return false
	}
	for _, more := range (*refusals)[:len(*refusals)-1] {
		f.typed.Merge(r, more, x.Header.APIVersion)
	}
	x.Answer(r)
	return true
}

// noAutoCreate clears a request's auto-creation of topics when the
// principal may not create every topic it names (Kafka answers those
// TOPIC_AUTHORIZATION_FAILED when they do not exist; here the broker
// answers UNKNOWN_TOPIC_OR_PARTITION), and reports whether it did.
func (f *Filter) noAutoCreate(x *proxy.Exchange, c *checker) bool {
	if f.typed.AutoCreate == nil {
		return false
	}
	flag := f.typed.AutoCreate(x.Request, x.Header.APIVersion)
	if flag == nil || !*flag || f.auth.Authorize(c.principal, ResourceCluster, ClusterName, OpCreate) {
		return false
	}
	if c.count(x.Request, x.Header.APIVersion, Check{Entity: runtime.EntityTopicName, Op: OpCreate}) == 0 {
		return false
	}
	*flag = false
	return true
}

// split forwards the parts of a request naming allowed resources of
// check's entity type and returns the refusals of the others, or refuses
// the whole request (a nil refusal) when the api is not answered per part.
func (f *Filter) split(x *proxy.Exchange, principal string, check Check) (runtime.APIMessage, bool, error) {
	code := ErrorCode(check.Entity)
	if f.typed.Split == nil || f.typed.Merge == nil {
		return nil, false, f.refuse(x, code)
	}
	if x.Unanswered {
		// Kafka closes the connection of a Produce with acks 0 that it
		// cannot append: the client gets no answer to see the error in.
		return nil, false, fmt.Errorf("a Produce with acks 0 names what the principal may not write: %w", kerrors.ErrorCode(code))
	}
	rt := resourceOf(check.Entity)
	refused := func(name string) bool {
		if rt == ResourceCluster {
			name = ClusterName
		}
		return !f.auth.Authorize(principal, rt, name, check.Op)
	}
	refusals, nothingLeft := f.typed.Split(x.Request, x.Header.APIVersion, check.Entity, refused, code)
	if refusals == nil {
		return nil, false, f.refuse(x, code)
	}
	f.told(x, code)
	return refusals, nothingLeft, nil
}

// initProducerID: WRITE on the transactional id, or without one
// IDEMPOTENT_WRITE on the cluster or WRITE on some topic.
func (f *Filter) initProducerID(x *proxy.Exchange, principal string) error {
	c := f.checkers.Get().(*checker)
	defer f.checkers.Put(c)
	c.principal = principal
	check := Check{Entity: runtime.EntityTransactionalID, Op: OpWrite}
	if c.count(x.Request, x.Header.APIVersion, check) > 0 {
		return f.refuse(x, kerrors.TransactionalIDAuthorizationFailed.Code)
	}
	if c.seen > 0 || f.auth.Authorize(principal, ResourceCluster, ClusterName, OpIdempotentWrite) ||
		f.auth.AuthorizeAnyTopic(principal, OpWrite) {
		return nil
	}
	return f.refuse(x, kerrors.ClusterAuthorizationFailed.Code)
}

// refuse answers the whole request with code.
func (f *Filter) refuse(x *proxy.Exchange, code int16) error {
	f.told(x, code)
	if x.Unanswered {
		return fmt.Errorf("api key %d v%d (acks 0) refused: %w", x.Header.APIKey, x.Header.APIVersion, kerrors.ErrorCode(code))
	}
	if f.typed.Refuse != nil {
		if resp := f.typed.Refuse(x.Request, x.Header.APIVersion, code); resp != nil {
			x.Answer(resp)
			return nil
		}
	}
	resp := f.typed.NewResponse(x.Header.APIKey)
	if resp != nil && proxy.SetErrorCode(resp, code) {
		x.Answer(resp)
		return nil
	}
	return fmt.Errorf("api key %d v%d refused, and its response has no top-level error code to say so: %w",
		x.Header.APIKey, x.Header.APIVersion, kerrors.ErrorCode(code))
}

func (f *Filter) told(x *proxy.Exchange, code int16) {
	if f.OnRefuse != nil {
		f.OnRefuse(x, code)
	}
}

// Response merges the refusals made at the request, and hides the
// resources the principal may not describe.
func (f *Filter) Response(x *proxy.Exchange) error {
	// Learnt before hiding: an id names one topic for every principal,
	// whose name each request's check then decides.
	if f.typed.LearnIDs != nil && proxy.PairsTopicIDs(x.Header.APIKey) {
		f.typed.LearnIDs(x.Response, x.ResponseVersion, f.learn)
	}
	// Hidden first: the refusals name what the client asked for by name,
	// which Kafka answers with the error rather than leave out.
	if rule := APIRules[x.Header.APIKey]; rule.HideUndescribed && f.typed.Hide != nil {
		principal := f.principal(x)
		if !f.auth.IsSuperUser(principal) && f.hide(x, rule, principal) {
			x.Edited()
		}
	}
	if refusals, ok := x.State().([]runtime.APIMessage); ok {
		for _, r := range refusals {
			f.typed.Merge(x.Response, r, x.ResponseVersion)
		}
		x.Edited()
	}
	return nil
}

// hide removes from x's answer what principal may not describe: by name,
// and at the versions listing topics by id only, by the name the id
// resolves to (an id not learned is hidden).
func (f *Filter) hide(x *proxy.Exchange, rule Rule, principal string) bool {
	c := f.checkers.Get().(*checker)
	defer f.checkers.Put(c)
	c.principal = principal
	hidden := f.typed.Hide(x.Response, x.ResponseVersion, c.visible)
	if from, byID := rule.byID(); byID && x.ResponseVersion >= from && f.typed.HideIDs != nil {
		hidden = f.typed.HideIDs(x.Response, x.ResponseVersion, c.visibleID) || hidden
	}
	return hidden
}

// checker counts the names of a request refused for one check; pooled, so
// that checking allocates nothing.
type checker struct {
	f         *Filter
	principal string
	check     Check
	seen      int
	refused   int
	unknown   int // ids not learned
	v         runtime.EntityVisitor
	names     func(runtime.EntityType, *string)
	id        func(runtime.UUID)
	visible   func(runtime.EntityType, string) bool // describable, bound once
	visibleID func(runtime.UUID) bool               // describableID, bound once
}

// count returns how many names of check.Entity in m are refused check.Op.
func (c *checker) count(m runtime.APIMessage, version int16, check Check) int {
	c.check, c.seen, c.refused = check, 0, 0
	if e, ok := m.(runtime.Entities); ok {
		e.VisitEntities(version, check.Entity, &c.v)
	}
	if c.f.typed.Names != nil {
		c.f.typed.Names(m, version, c.names)
	}
	return c.refused
}

func (c *checker) visit(name *string) {
	c.seen++
	rt, resource := resourceOf(c.check.Entity), *name
	if rt == ResourceCluster {
		resource = ClusterName // a broker's part of the request
	}
	if !c.f.auth.Authorize(c.principal, rt, resource, c.check.Op) {
		c.refused++
	}
}

// describable reports whether the principal may describe a resource of a
// response (Filter.Response hides the others).
func (c *checker) describable(t runtime.EntityType, name string) bool {
	return c.f.auth.Authorize(c.principal, resourceOf(t), name, OpDescribe)
}

func (c *checker) visitTyped(t runtime.EntityType, name *string) {
	if t == c.check.Entity {
		c.visit(name)
	}
}
