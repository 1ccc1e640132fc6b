package generator

import (
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// endpoint is the broker address a struct holds: its string Host, its
// int32 Port and the node's int32 id, with the versions that have all
// three.
type endpoint struct {
	id, host, port *fieldModel
	when           plan.Cond
}

// endpointOf finds sm's broker address. The node id is the int32 field of
// entity type brokerId, or else the one named NodeId or BrokerId.
func endpointOf(sm *structModel) (endpoint, bool) {
	var ep endpoint
	var named *fieldModel
	for _, fm := range sm.fields {
		if fm.array() {
			continue
		}
		switch k := fm.kind(); {
		case fm.f.Name == "Host" && k == schema.KindString:
			ep.host = fm
		case fm.f.Name == "Port" && k == schema.KindInt32:
			ep.port = fm
		case k == schema.KindInt32 && fm.f.EntityType == "brokerId" && ep.id == nil:
			ep.id = fm
		case k == schema.KindInt32 && (fm.f.Name == "NodeId" || fm.f.Name == "BrokerId") && named == nil:
			named = fm
		}
	}
	if ep.id == nil {
		ep.id = named
	}
	if ep.id == nil || ep.host == nil || ep.port == nil {
		return ep, false
	}
	on := ep.id.p.Present.On.Intersect(ep.host.p.Present.On).Intersect(ep.port.p.Present.On)
	ep.when = plan.Cond{On: on, Within: sm.p.Within}
	return ep, !ep.when.Never()
}

// visitsEndpoints reports whether sm holds a broker address, itself or in
// the structs its fields hold, at some version its code runs.
func visitsEndpoints(sm *structModel, depth int) bool {
	if depth > maxVisitDepth {
		return false
	}
	if _, ok := endpointOf(sm); ok {
		return true
	}
	for _, fm := range sm.fields {
		if fm.elem != nil && !fm.p.Present.Never() && visitsEndpoints(fm.elem, depth+1) {
			return true
		}
	}
	return false
}

// endpointVisits are the statements that visit the broker addresses of the
// struct held by m: its own first, then those of its fields in order.
func endpointVisits(sm *structModel) []Code {
	var visits []guardedVisit
	if ep, ok := endpointOf(sm); ok {
		call := func(host *Statement) Code {
			return Id("fn").Call(Id("m").Dot(ep.id.goName), Op("&").Add(host), Op("&").Id("m").Dot(ep.port.goName))
		}
		visits = append(visits, valueVisit(ep.host, ep.when, Id("m"), call))
	}
	for _, fm := range sm.fields {
		if fm.elem == nil || fm.p.Present.Never() || !visitsEndpoints(fm.elem, 0) {
			continue
		}
		visit := func(val *Statement) Code { return val.Dot("visitEndpoints").Call(Id("version"), Id("fn")) }
		visits = append(visits, valueVisit(fm, fm.p.Present, Id("m"), visit))
	}
	return guardedBlocks(visits)
}

// endpointFunc is the type of VisitEndpoints' callback.
func endpointFunc() *Statement {
	return Func().Params(Id("nodeID").Int32(), Id("host").Op("*").String(), Id("port").Op("*").Int32())
}

// emitVisitEndpoints writes a message's VisitEndpoints.
func emitVisitEndpoints(f *File, sm *structModel) {
	params := []Code{Id("version").Int16(), Id("fn").Add(endpointFunc())}
	if !visitsEndpoints(sm, 0) {
		docCommentf(f, "VisitEndpoints visits nothing: %s holds no broker address\n(runtime.Endpoints).", sm.goName)
		f.Func().Add(visitorRecv(sm)).Id("VisitEndpoints").Params(params...).Block()
		f.Line()
		return
	}
	docComment(f, wrapDoc("VisitEndpoints calls fn with the node id, host and port of every broker "+
		"address m holds at version (runtime.Endpoints): "+strings.Join(endpointPaths(sm, "", 0), ", ")+"."))
	body := append([]Code{If(versionGuard(sm)).Block(Return())}, endpointVisits(sm)...)
	f.Func().Add(visitorRecv(sm)).Id("VisitEndpoints").Params(params...).Block(body...)
	f.Line()
}

// emitNestedVisitEndpoints writes visitEndpoints of a struct reached
// through a field.
func emitNestedVisitEndpoints(f *File, sm *structModel) {
	docComment(f, "visitEndpoints is VisitEndpoints on m's fields at the message's version.")
	f.Func().Add(visitorRecv(sm)).Id("visitEndpoints").Params(Id("version").Int16(), Id("fn").Add(endpointFunc())).
		Block(endpointVisits(sm)...)
	f.Line()
}

// endpointPaths are the spec paths, under prefix, of the structs holding
// broker addresses that sm's visitor reaches, with their node id fields:
// "Brokers[] (NodeId)", or "m itself (NodeId)" for the message.
func endpointPaths(sm *structModel, prefix string, depth int) []string {
	var out []string
	if ep, ok := endpointOf(sm); ok {
		holder := "m itself"
		if prefix != "" {
			holder = strings.TrimSuffix(prefix, ".")
		}
		out = append(out, holder+" ("+ep.id.f.Name+")")
	}
	for _, fm := range sm.fields {
		if fm.elem == nil || fm.p.Present.Never() || depth > maxVisitDepth {
			continue
		}
		path := prefix + fm.f.Name
		if fm.array() {
			path += "[]"
		}
		out = append(out, endpointPaths(fm.elem, path+".", depth+1)...)
	}
	return out
}
