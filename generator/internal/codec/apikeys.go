package codec

import (
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
)

// PrintAPIKeys prints into f, for a package holding requests or responses,
// its api keys: a constant per api (APIKeyProduce), APIKeyName and APIKeys.
// It reports false, printing nothing, for a package without any.
func PrintAPIKeys(f *File, n *gomodel.Names) bool {
	entries := n.APIKeys()
	if len(entries) == 0 {
		return false
	}

	var consts, cases, keys []Code
	for _, e := range entries {
		id := "APIKey" + gomodel.GoName(e.Name)
		consts = append(consts,
			Commentf("%s is the api key of %s (%s).", id, e.Name, strings.Join(e.Specs, ", ")),
			Id(id).Int16().Op("=").Lit(int(e.Key)),
		)
		cases = append(cases, Case(Id(id)).Block(Return(Lit(e.Name))))
		keys = append(keys, Id(id))
	}
	gomodel.DocComment(f, "Api keys of this package's requests and responses, named as Kafka's ApiKeys.")
	f.Const().Defs(consts...)
	f.Line()
	gomodel.DocComment(f, "APIKeyName returns Kafka's name of an api key, such as \"Produce\", or \"\" if\nthis package does not know the key.")
	f.Func().Id("APIKeyName").Params(Id("key").Int16()).String().Block(
		Switch(Id("key")).Block(cases...),
		Return(Lit("")),
	)
	f.Line()
	gomodel.DocComment(f, "APIKeys lists the api keys of this package, ascending.")
	f.Func().Id("APIKeys").Params().Index().Int16().Block(Return(Index().Int16().Values(keys...)))
	return true
}
