package acl

import (
	"fmt"

	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The check of the parts of a request naming topics by id, as Kafka's
// broker makes it (docs/protocol.md, "Authorization"): each id resolves to
// its topic's name; an id not known is answered UNKNOWN_TOPIC_ID; the name
// is then checked as a named topic is.

// refuseIDsFrom is the first version of rule naming topics by id that the
// filter cannot resolve, if any: from ByIDFrom (or every version, for
// ByIDAll) when the typed code has no id hooks, which keeps those versions
// from clients that are not super users.
func (f *Filter) refuseIDsFrom(rule Rule) (int16, bool) {
	if from, ok := rule.byID(); ok && !f.resolvesIDs(rule) {
		return from, true
	}
	return 0, false
}

// resolvesIDs reports whether the versions of rule naming topics by id are
// checked by their names: the typed code can find and split them.
func (f *Filter) resolvesIDs(rule Rule) bool {
	_, ok := rule.byID()
	return ok && f.typed.RequestIDs != nil && f.typed.SplitIDs != nil
}

// checkIDs splits out of x's request the parts naming unknown ids, then
// those whose topic check refuses, adding their answers to refusals; it
// reports whether the request was answered (nothing left to forward).
func (f *Filter) checkIDs(x *proxy.Exchange, c *checker, check Check, refusals *[]runtime.APIMessage) (bool, error) {
	version := x.Header.APIVersion
	c.countIDs(x.Request, version, check)
	if c.unknown > 0 {
		unknown := func(id runtime.UUID) bool { _, ok := f.ids.Name(id); return !ok }
		r, nothingLeft, err := f.splitIDs(x, unknown, kerrors.UnknownTopicID.Code)
		if r == nil || err != nil {
			return true, err // answered whole, or not at all
		}
		if f.addRefusals(x, refusals, r, nothingLeft) {
			return true, nil
		}
	}
	if c.refused == 0 {
		return false, nil
	}
	principal := c.principal
	refused := func(id runtime.UUID) bool {
		name, ok := f.ids.Name(id)
		return ok && !f.auth.Authorize(principal, ResourceTopic, name, check.Op)
	}
	code := ErrorCode(runtime.EntityTopicName)
	r, nothingLeft, err := f.splitIDs(x, refused, code)
	if r == nil || err != nil {
		return true, err
	}
	f.told(x, code)
	return f.addRefusals(x, refusals, r, nothingLeft), nil
}

// splitIDs moves the parts for which out is true out of x's request into
// the refusals answering them with code; an api the typed code cannot
// answer per part is answered whole.
func (f *Filter) splitIDs(x *proxy.Exchange, out func(runtime.UUID) bool, code int16) (runtime.APIMessage, bool, error) {
	if x.Unanswered {
		// As split: a Produce with acks 0 has no answer to carry the error.
		return nil, false, fmt.Errorf("a Produce with acks 0 names a topic id the principal may not write or the proxy does not know: %w", kerrors.ErrorCode(code))
	}
	refusals, nothingLeft := f.typed.SplitIDs(x.Request, x.Header.APIVersion, out, code)
	if refusals == nil {
		return nil, false, f.refuse(x, code)
	}
	return refusals, nothingLeft, nil
}

// countIDs counts the ids of m's parts named by id that are unknown, and
// those whose names are refused check.Op.
func (c *checker) countIDs(m runtime.APIMessage, version int16, check Check) {
	c.check, c.seen, c.refused, c.unknown = check, 0, 0, 0
	c.f.typed.RequestIDs(m, version, c.id)
}

func (c *checker) describableID(id runtime.UUID) bool {
	name, ok := c.f.ids.Name(id)
	return ok && c.f.auth.Authorize(c.principal, ResourceTopic, name, OpDescribe)
}

func (c *checker) visitID(id runtime.UUID) {
	c.seen++
	name, ok := c.f.ids.Name(id)
	switch {
	case !ok:
		c.unknown++
	case !c.f.auth.Authorize(c.principal, ResourceTopic, name, c.check.Op):
		c.refused++
	}
}
