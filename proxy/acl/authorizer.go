package acl

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Policy is everything authorization decides by; the configuration file
// gives it, and a reload replaces it whole.
type Policy struct {
	// SuperUsers may do everything, whatever the ACLs say.
	SuperUsers []string
	// AllowEveryoneIfNoACLFound allows an operation on a resource that no
	// ACL names at all (Kafka's allow.everyone.if.no.acl.found; default
	// false: such a resource is refused to all but super users).
	AllowEveryoneIfNoACLFound bool
	ACLs                      []ACL
}

// Authorizer decides requests by a Policy that Reload may replace while
// connections use it: each decision reads one policy, the old or the new.
type Authorizer struct {
	rules atomic.Pointer[rules]
}

// NewAuthorizer checks p and decides by it.
func NewAuthorizer(p Policy) (*Authorizer, error) {
	a := &Authorizer{}
	if err := a.Reload(p); err != nil {
		return nil, err
	}
	return a, nil
}

// Reload replaces the policy, or keeps the old one and returns why p is
// wrong.
func (a *Authorizer) Reload(p Policy) error {
	r, err := compile(p)
	if err != nil {
		return err
	}
	a.rules.Store(r)
	return nil
}

// IsSuperUser reports whether principal may do everything.
func (a *Authorizer) IsSuperUser(principal string) bool {
	return a.rules.Load().super[PrincipalName(principal)]
}

// Authorize reports whether principal may do op on the resource of type rt
// named name (for the cluster, ClusterName). It allocates nothing.
func (a *Authorizer) Authorize(principal string, rt ResourceType, name string, op Operation) bool {
	return a.rules.Load().authorize(PrincipalName(principal), rt, name, op)
}

// AuthorizeAnyTopic reports whether principal may do op on some topic: an
// allowing ACL for it on any topic pattern, and no denial of every topic
// (Kafka's authorizeByResourceType, which InitProducerId without a
// transactional id asks for WRITE).
func (a *Authorizer) AuthorizeAnyTopic(principal string, op Operation) bool {
	return a.rules.Load().authorizeAnyTopic(PrincipalName(principal), op)
}

// rules is a compiled Policy.
type rules struct {
	super       map[string]bool
	allowIfNone bool
	literal     map[resourceKey][]entry
	prefixed    map[ResourceType][]prefixEntry
}

type resourceKey struct {
	rt   ResourceType
	name string
}

// entry is one ACL's principal and permission, with the operations it
// decides as bits: for an ALLOW every operation it grants (implications
// included), for a DENY the ones it names (ALL: every one).
type entry struct {
	principal string
	deny      bool
	ops       uint32
}

type prefixEntry struct {
	prefix string
	entry
}

func opBit(o Operation) uint32 { return 1 << uint(o) }

func compile(p Policy) (*rules, error) {
	r := &rules{super: map[string]bool{}, allowIfNone: p.AllowEveryoneIfNoACLFound,
		literal: map[resourceKey][]entry{}, prefixed: map[ResourceType][]prefixEntry{}}
	for i, u := range p.SuperUsers {
		name := PrincipalName(strings.TrimSpace(u))
		if name == "" {
			return nil, fmt.Errorf("superUsers[%d] is empty", i)
		}
		r.super[name] = true
	}
	for i, acl := range p.ACLs {
		if err := acl.Check(); err != nil {
			return nil, fmt.Errorf("acls[%d]: %w", i, err)
		}
		e := entry{principal: PrincipalName(acl.Principal), deny: acl.Permission == Deny}
		for _, o := range acl.Operations {
			for want := range operationNames {
				if (e.deny && (o == want || o == OpAll)) || (!e.deny && o.grants(want)) {
					e.ops |= opBit(want)
				}
			}
		}
		if acl.PatternType == PatternPrefixed {
			r.prefixed[acl.ResourceType] = append(r.prefixed[acl.ResourceType], prefixEntry{prefix: acl.Name, entry: e})
			continue
		}
		k := resourceKey{acl.ResourceType, acl.Name}
		r.literal[k] = append(r.literal[k], e)
	}
	return r, nil
}

// verdict gathers what the ACLs matching a resource say.
type verdict struct {
	found, allowed, denied bool
}

func (v *verdict) add(es []entry, principal string, bit uint32) {
	for i := range es {
		v.one(&es[i], principal, bit)
	}
}

func (v *verdict) one(e *entry, principal string, bit uint32) {
	v.found = true
	if e.ops&bit == 0 || (e.principal != principal && e.principal != Wildcard) {
		return
	}
	if e.deny {
		v.denied = true
	} else {
		v.allowed = true
	}
}

// authorize decides as docs/protocol.md "Authorization" says: super users
// always; a matching DENY wins over a matching ALLOW; no ACL on the
// resource at all falls to allowIfNone.
func (r *rules) authorize(principal string, rt ResourceType, name string, op Operation) bool {
	if r.super[principal] {
		return true
	}
	var v verdict
	bit := opBit(op)
	v.add(r.literal[resourceKey{rt, name}], principal, bit)
	if name != Wildcard {
		v.add(r.literal[resourceKey{rt, Wildcard}], principal, bit)
	}
	pes := r.prefixed[rt]
	for i := range pes {
		if strings.HasPrefix(name, pes[i].prefix) {
			v.one(&pes[i].entry, principal, bit)
		}
	}
	switch {
	case v.denied:
		return false
	case v.allowed:
		return true
	}
	return !v.found && r.allowIfNone
}

func (r *rules) authorizeAnyTopic(principal string, op Operation) bool {
	if r.super[principal] {
		return true
	}
	var every verdict
	every.add(r.literal[resourceKey{ResourceTopic, Wildcard}], principal, opBit(op))
	if every.denied {
		return false
	}
	if every.allowed {
		return true
	}
	found := every.found
	for k, es := range r.literal {
		if k.rt != ResourceTopic {
			continue
		}
		var v verdict
		v.add(es, principal, opBit(op))
		found = found || v.found
		if v.allowed && !v.denied {
			return true
		}
	}
	for _, pe := range r.prefixed[ResourceTopic] {
		found = true
		if !pe.deny && pe.ops&opBit(op) != 0 && (pe.principal == principal || pe.principal == Wildcard) {
			return true
		}
	}
	return !found && r.allowIfNone
}
