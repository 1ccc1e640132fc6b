package codec

import (
	"sort"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// emitRegistry writes the package-level lookups: NewByName, NewRequest and
// NewResponse by API key, NewMetadataRecord by record type, and
// NewCoordinatorKey and NewCoordinatorValue by coordinator record type
// (Kafka's CoordinatorRecordType.newRecordKey and newRecordValue).
func emitRegistry(f *File, n *gomodel.Names) {
	var names []Code
	var byName []Code
	var requests, responses, records, coordKeys, coordValues []*schema.Spec
	for _, sf := range n.Files {
		spec := sf.Spec
		names = append(names, Lit(spec.Name))
		byName = append(byName, Case(Lit(spec.Name)).Block(Id("m").Op("=").New(Id(n.TypeName(spec.Root)))))
		switch spec.Type {
		case schema.TypeRequest:
			requests = append(requests, spec)
		case schema.TypeResponse:
			responses = append(responses, spec)
		case schema.TypeMetadata:
			records = append(records, spec)
		case schema.TypeCoordinatorKey:
			coordKeys = append(coordKeys, spec)
		case schema.TypeCoordinatorValue:
			coordValues = append(coordValues, spec)
		}
	}
	gomodel.DocComment(f, "SpecNames lists the spec names of this package, sorted.")
	f.Func().Id("SpecNames").Params().Index().String().Block(Return(Index().String().Values(names...)))
	f.Line()
	gomodel.DocComment(f, "NewByName returns a new message, holding its defaults, for a spec name such\nas \"FetchRequest\", or nil if the package has no such spec.")
	f.Func().Id("NewByName").Params(Id("name").String()).Add(gomodel.Rt("Message")).Block(newOf(Id("name"), byName, gomodel.Rt("Message"))...)
	byKey := func(fns string, doc string, list []*schema.Spec, ret *Statement) {
		sort.Slice(list, func(i, j int) bool { return list[i].APIKey < list[j].APIKey })
		var cases []Code
		for _, spec := range list {
			cases = append(cases, Case(Lit(int(spec.APIKey))).Block(Id("m").Op("=").New(Id(n.TypeName(spec.Root)))))
		}
		f.Line()
		gomodel.DocComment(f, doc)
		f.Func().Id(fns).Params(Id("key").Int16()).Add(ret).Block(newOf(Id("key"), cases, ret)...)
	}
	if len(requests) > 0 {
		byKey("NewRequest", "NewRequest returns a new request for an API key, or nil if unknown.", requests, gomodel.Rt("APIMessage"))
	}
	if len(responses) > 0 {
		byKey("NewResponse", "NewResponse returns a new response for an API key, or nil if unknown.", responses, gomodel.Rt("APIMessage"))
	}
	if len(records) > 0 {
		byKey("NewMetadataRecord", "NewMetadataRecord returns a new metadata record for a record type id, or\nnil if unknown.", records, gomodel.Rt("Message"))
	}
	if len(coordKeys) > 0 {
		byKey("NewCoordinatorKey", "NewCoordinatorKey returns a new coordinator record key for a record type\n(the key's own version 0 says it), or nil if unknown.", coordKeys, gomodel.Rt("Message"))
	}
	if len(coordValues) > 0 {
		byKey("NewCoordinatorValue", "NewCoordinatorValue returns a new coordinator record value for a record\ntype, or nil if unknown.", coordValues, gomodel.Rt("Message"))
	}
}

// newOf is the body of a registry lookup: the switch allocates the message
// of the case that matches, then Reset (through the interface, so that the
// lookup does not inline every message's Reset) gives it its defaults.
func newOf(key *Statement, cases []Code, typ *Statement) []Code {
	return []Code{
		Var().Id("m").Add(typ),
		Switch(key).Block(append(cases, Default().Block(Return(Nil())))...),
		Id("m").Dot("Reset").Call(),
		Return(Id("m")),
	}
}
