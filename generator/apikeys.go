package generator

import (
	"sort"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// APIKeysFile is the file holding a package's api key constants.
const APIKeysFile = "kafkagen_apikeys.go"

// apiKeyEntry is one api of a package: its key, Kafka's name for it (the
// spec name without Request or Response, as Kafka's ApiKeys names them:
// "Produce", "ApiVersions") and the specs that carry it.
type apiKeyEntry struct {
	key   int16
	name  string
	specs []string
}

// apiKeyEntries collects the apis of the request and response specs of a
// package, sorted by key. A request's name wins over its response's.
func apiKeyEntries(n *goNames) []*apiKeyEntry {
	byKey := map[int16]*apiKeyEntry{}
	for _, sf := range n.files {
		spec := sf.spec
		var suffix string
		switch spec.Type {
		case schema.TypeRequest:
			suffix = "Request"
		case schema.TypeResponse:
			suffix = "Response"
		default:
			continue
		}
		name := strings.TrimSuffix(spec.Name, suffix)
		e := byKey[spec.APIKey]
		if e == nil {
			e = &apiKeyEntry{key: spec.APIKey, name: name}
			byKey[spec.APIKey] = e
		} else if suffix == "Request" {
			e.name = name
		}
		e.specs = append(e.specs, spec.Name)
	}
	out := make([]*apiKeyEntry, 0, len(byKey))
	for _, e := range byKey {
		sort.Strings(e.specs)
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// emitAPIKeys prints into f, for a package holding requests or responses,
// its api keys: a constant per api (APIKeyProduce), APIKeyName and APIKeys.
// It reports false, printing nothing, for a package without any.
func emitAPIKeys(f *File, n *goNames) bool {
	entries := apiKeyEntries(n)
	if len(entries) == 0 {
		return false
	}

	var consts, cases, keys []Code
	for _, e := range entries {
		id := "APIKey" + goName(e.name)
		consts = append(consts,
			Commentf("%s is the api key of %s (%s).", id, e.name, strings.Join(e.specs, ", ")),
			Id(id).Int16().Op("=").Lit(int(e.key)),
		)
		cases = append(cases, Case(Id(id)).Block(Return(Lit(e.name))))
		keys = append(keys, Id(id))
	}
	docComment(f, "Api keys of this package's requests and responses, named as Kafka's ApiKeys.")
	f.Const().Defs(consts...)
	f.Line()
	docComment(f, "APIKeyName returns Kafka's name of an api key, such as \"Produce\", or \"\" if\nthis package does not know the key.")
	f.Func().Id("APIKeyName").Params(Id("key").Int16()).String().Block(
		Switch(Id("key")).Block(cases...),
		Return(Lit("")),
	)
	f.Line()
	docComment(f, "APIKeys lists the api keys of this package, ascending.")
	f.Func().Id("APIKeys").Params().Index().Int16().Block(Return(Index().Int16().Values(keys...)))
	return true
}
