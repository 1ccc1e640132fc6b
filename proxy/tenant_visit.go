package proxy

import (
	"strings"
	"sync"

	"github.com/kafkagen/kafkagen/runtime"
)

// tenantVisit is the state of one walk of Tenant over a message: its
// visitors are bound to it once, when the pool makes it, so that a walk
// allocates nothing (the prefixed names aside). Tenants serve many
// connections at once, so the state cannot live in the Tenant.
type tenantVisit struct {
	t *Tenant
	// Names: strip removes the prefix (responses), else it is added.
	strip   bool
	changed bool
	foreign string // the first name without the prefix
	// Ids: learn adds them to the tenant's, else the first unknown one is
	// kept.
	learn   bool
	unknown runtime.UUID
	found   bool

	names   runtime.EntityVisitor
	ids     runtime.EntityVisitor
	named   func(runtime.EntityType, *string)
	visible func(runtime.EntityType, string) bool // for Tenant.Hide
}

var tenantVisits = sync.Pool{New: func() any {
	tv := &tenantVisit{}
	tv.names.String = tv.name
	tv.ids.UUID = tv.id
	tv.named = tv.namedHook
	tv.visible = tv.isTenants
	return tv
}}

func newTenantVisit(t *Tenant) *tenantVisit {
	tv := tenantVisits.Get().(*tenantVisit)
	tv.t = t
	return tv
}

// done returns the visit to the pool and reports whether it changed a name.
func (tv *tenantVisit) done() bool {
	changed := tv.changed
	tv.t, tv.strip, tv.changed, tv.foreign = nil, false, false, ""
	tv.learn, tv.unknown, tv.found = false, runtime.UUID{}, false
	tenantVisits.Put(tv)
	return changed
}

func (tv *tenantVisit) name(p *string) {
	if !tv.strip {
		if *p != "" {
			*p = tv.t.Prefix + *p
			tv.changed = true
		}
		return
	}
	rest, ok := strings.CutPrefix(*p, tv.t.Prefix)
	if !ok {
		if *p != "" && tv.foreign == "" {
			tv.foreign = *p
		}
		return
	}
	*p, tv.changed = rest, true
}

// walk prefixes every name of m, or removes the prefix (strip).
func (tv *tenantVisit) walk(m runtime.APIMessage, version int16) {
	e, ok := m.(runtime.Entities)
	if !ok {
		return
	}
	for _, et := range tenantEntities {
		e.VisitEntities(version, et, &tv.names)
	}
	if tv.t.Names != nil {
		tv.t.Names(m, version, tv.named)
	}
}

// isTenants reports whether a name is the tenant's.
func (tv *tenantVisit) isTenants(_ runtime.EntityType, name string) bool {
	return strings.HasPrefix(name, tv.t.Prefix)
}

func (tv *tenantVisit) namedHook(_ runtime.EntityType, p *string) { tv.name(p) }

// id handles a topic id; the zero id is Kafka's "no id" (a topic named by
// name) and passes.
func (tv *tenantVisit) id(p *runtime.UUID) {
	switch {
	case *p == runtime.UUID{}:
	case tv.learn:
		tv.t.ids.add(*p)
	case !tv.found && !tv.t.ids.has(*p):
		tv.unknown, tv.found = *p, true
	}
}
