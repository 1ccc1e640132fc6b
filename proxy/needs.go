package proxy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kafkagen/kafkagen/runtime"
)

// What the proxy needs of the generated package, checked by New: a package
// made with kafkagen -messages may leave out an api the proxy cannot work
// without, and a proxy that starts anyway fails every client instead.

// maxAPIKey bounds the api keys New looks for in a package (Kafka's run to
// about 90 as of 4.0).
const maxAPIKey = 1024

// neededAPI is an api the proxy itself decodes.
type neededAPI struct {
	key  int16
	name string // Kafka's name, as kafkagen -messages takes it
	why  string
}

// alwaysNeeded: the proxy narrows every ApiVersions answer to what the
// package reads; without ApiVersions it cannot, and clients are cut off at
// their first request.
var alwaysNeeded = []neededAPI{{18, "ApiVersions", "the proxy narrows every ApiVersions answer to what the package reads"}}

// rewriteNeeded: with Config.RewriteAddresses, clients learn the brokers and
// the coordinators through these, whose answers must be rewritten. The
// other apis of Config.EndpointAPIs the package lacks are not advertised to
// clients (see versionClamp), so no address escapes through them.
var rewriteNeeded = []neededAPI{
	{3, "Metadata", "clients find the brokers through it and Config.RewriteAddresses rewrites its addresses"},
	{10, "FindCoordinator", "clients find group and transaction coordinators through it and Config.RewriteAddresses rewrites its addresses"},
}

// checkPackage refuses a package lacking an api the proxy needs, naming the
// missing apis and the -messages list to regenerate it with; with address
// rewriting it also refuses endpoint apis whose responses cannot be
// rewritten.
func checkPackage(cfg Config) error {
	have := packageAPIs(cfg.NewRequest, cfg.NewResponse)
	needed := alwaysNeeded
	if cfg.RewriteAddresses {
		needed = append(slices.Clip(needed), rewriteNeeded...)
	}
	var missing []neededAPI
	for _, n := range needed {
		if _, ok := have[n.key]; !ok {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return missingAPIsError(have, missing)
	}
	if !cfg.RewriteAddresses {
		return nil
	}
	for _, key := range cfg.EndpointAPIs {
		if _, ok := have[key]; !ok {
			continue
		}
		if resp := cfg.NewResponse(key); resp != nil {
			if _, ok := resp.(runtime.Endpoints); !ok {
				return fmt.Errorf("proxy: Config.RewriteAddresses: %s has no VisitEndpoints, so its broker addresses cannot be rewritten: regenerate the package with a current kafkagen", resp.SpecName())
			}
		}
	}
	return nil
}

// packageAPIs maps the api keys a package has both messages of to Kafka's
// name of the api.
func packageAPIs(newRequest, newResponse func(int16) runtime.APIMessage) map[int16]string {
	have := map[int16]string{}
	for key := range int16(maxAPIKey) {
		req := newRequest(key)
		if req == nil || newResponse(key) == nil {
			continue
		}
		have[key] = strings.TrimSuffix(req.SpecName(), "Request")
	}
	return have
}

// missingAPIsError names what is missing, why, and the -messages list that
// keeps the package's apis and adds the missing ones.
func missingAPIsError(have map[int16]string, missing []neededAPI) error {
	keys := make([]int16, 0, len(have)+len(missing))
	names := map[int16]string{}
	for k, n := range have {
		keys, names[k] = append(keys, k), n
	}
	var what []string
	for _, m := range missing {
		keys, names[m.key] = append(keys, m.key), m.name
		what = append(what, fmt.Sprintf("%s (api key %d: %s)", m.name, m.key, m.why))
	}
	slices.Sort(keys)
	list := make([]string, len(keys))
	for i, k := range keys {
		list[i] = names[k]
	}
	return fmt.Errorf("proxy: the generated package lacks %s; regenerate it with kafkagen -messages %s",
		strings.Join(what, " and "), strings.Join(list, ","))
}
