package codec

import (
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// endpoint is the broker address a struct holds: its string Host, its
// int32 Port and the node's int32 id, with the versions that have all
// three.
type endpoint struct {
	id, host, port *plan.Field
	when           plan.Cond
}

// endpointOf finds s's broker address. The node id is the int32 field of
// entity type brokerId, or else the one named NodeId or BrokerId.
func endpointOf(s *plan.Struct) (endpoint, bool) {
	var ep endpoint
	var named *plan.Field
	for _, f := range s.Fields {
		sf := f.Schema
		if sf.Type.Array {
			continue
		}
		switch k := sf.Type.Kind; {
		case sf.Name == "Host" && k == schema.KindString:
			ep.host = f
		case sf.Name == "Port" && k == schema.KindInt32:
			ep.port = f
		case k == schema.KindInt32 && sf.EntityType == "brokerId" && ep.id == nil:
			ep.id = f
		case k == schema.KindInt32 && (sf.Name == "NodeId" || sf.Name == "BrokerId") && named == nil:
			named = f
		}
	}
	if ep.id == nil {
		ep.id = named
	}
	if ep.id == nil || ep.host == nil || ep.port == nil {
		return ep, false
	}
	on := ep.id.Present.On.Intersect(ep.host.Present.On).Intersect(ep.port.Present.On)
	ep.when = plan.Cond{On: on, Within: s.Within}
	return ep, !ep.when.Never()
}

// visitsEndpoints reports whether s holds a broker address, itself or in
// the structs its fields hold, at some version its code runs.
func visitsEndpoints(s *plan.Struct, depth int) bool {
	if depth > maxVisitDepth {
		return false
	}
	if _, ok := endpointOf(s); ok {
		return true
	}
	for _, f := range s.Fields {
		if f.Elem != nil && !f.Present.Never() && visitsEndpoints(f.Elem, depth+1) {
			return true
		}
	}
	return false
}

// endpointVisits are the statements that visit the broker addresses of the
// struct held by m: its own first, then those of its fields in order.
func (p *printer) endpointVisits(s *plan.Struct) []Code {
	var visits []guardedVisit
	if ep, ok := endpointOf(s); ok {
		call := func(host *Statement) Code {
			return Id("fn").Call(Id("m").Dot(p.FieldName(ep.id)), Op("&").Add(host), Op("&").Id("m").Dot(p.FieldName(ep.port)))
		}
		visits = append(visits, p.valueVisit(ep.host, ep.when, call))
	}
	for _, f := range s.Fields {
		if f.Elem == nil || f.Present.Never() || !visitsEndpoints(f.Elem, 0) {
			continue
		}
		visit := func(val *Statement) Code { return val.Dot("visitEndpoints").Call(Id("version"), Id("fn")) }
		visits = append(visits, p.valueVisit(f, f.Present, visit))
	}
	return guardedBlocks(visits)
}

// endpointFunc is the type of VisitEndpoints' callback.
func endpointFunc() *Statement {
	return Func().Params(Id("nodeID").Int32(), Id("host").Op("*").String(), Id("port").Op("*").Int32())
}

// emitVisitEndpoints writes a message's VisitEndpoints.
func (p *printer) emitVisitEndpoints(f *File, s *plan.Struct) {
	params := []Code{Id("version").Int16(), Id("fn").Add(endpointFunc())}
	if !visitsEndpoints(s, 0) {
		gomodel.DocCommentf(f, "VisitEndpoints visits nothing: %s holds no broker address\n(runtime.Endpoints).", p.TypeName(s))
		f.Func().Add(p.visitorRecv(s)).Id("VisitEndpoints").Params(params...).Block()
		f.Line()
		return
	}
	gomodel.DocComment(f, wrapDoc("VisitEndpoints calls fn with the node id, host and port of every broker "+
		"address m holds at version (runtime.Endpoints): "+strings.Join(endpointPaths(s, "", 0), ", ")+"."))
	body := append([]Code{If(versionGuard(s)).Block(Return())}, p.endpointVisits(s)...)
	f.Func().Add(p.visitorRecv(s)).Id("VisitEndpoints").Params(params...).Block(body...)
	f.Line()
}

// emitNestedVisitEndpoints writes visitEndpoints of a struct reached
// through a field.
func (p *printer) emitNestedVisitEndpoints(f *File, s *plan.Struct) {
	gomodel.DocComment(f, "visitEndpoints is VisitEndpoints on m's fields at the message's version.")
	f.Func().Add(p.visitorRecv(s)).Id("visitEndpoints").Params(Id("version").Int16(), Id("fn").Add(endpointFunc())).
		Block(p.endpointVisits(s)...)
	f.Line()
}

// endpointPaths are the spec paths, under prefix, of the structs holding
// broker addresses that sm's visitor reaches, with their node id fields:
// "Brokers[] (NodeId)", or "m itself (NodeId)" for the message.
func endpointPaths(s *plan.Struct, prefix string, depth int) []string {
	var out []string
	if ep, ok := endpointOf(s); ok {
		holder := "m itself"
		if prefix != "" {
			holder = strings.TrimSuffix(prefix, ".")
		}
		out = append(out, holder+" ("+ep.id.Schema.Name+")")
	}
	for _, f := range s.Fields {
		if f.Elem == nil || f.Present.Never() || depth > maxVisitDepth {
			continue
		}
		path := prefix + f.Schema.Name
		if f.Schema.Type.Array {
			path += "[]"
		}
		out = append(out, endpointPaths(f.Elem, path+".", depth+1)...)
	}
	return out
}
