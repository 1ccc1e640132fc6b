package generator

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Prune says what a run leaves out (Config.Prune), for packages that need
// a few APIs and recent versions only (smaller, quicker to compile).
type Prune struct {
	// Messages keeps only the messages named, when not empty. Each entry is
	// a spec name ("FetchRequest", "LeaderChangeMessage"), an API name
	// ("Fetch": its request and response) or an API key ("1"), matched
	// regardless of case. A request brings its response along and a
	// response its request, and the header specs of the folder
	// (RequestHeader, ResponseHeader) come with any API.
	Messages []string
	// MinVersion prunes the versions of requests and responses below it:
	// their MinVersion is then the higher of it and their lowest valid
	// version, and every other version is refused with
	// runtime.ErrUnsupportedVersion. An API with no version left is left
	// out. Headers and other specs keep all their versions, and so does
	// ApiVersions unless MinVersions names it (see apiVersionsKey).
	MinVersion int16
	// MinVersions sets the floor of single APIs instead of MinVersion,
	// keyed as Messages are ("ApiVersions": 0, "Metadata": 1).
	MinVersions map[string]int16
}

// apiVersionsKey is ApiVersions' API key. A client asks for ApiVersions
// first, at the highest version it knows; a broker that does not serve
// that version answers in v0 (KIP-511, error UNSUPPORTED_VERSION and its
// own ApiVersions range), so that the client can ask again within it. A
// package pruned above v0 could neither read that answer nor ask again,
// so the response always keeps v0, and the request does unless a floor of
// MinVersions names ApiVersions.
const apiVersionsKey = 18

// isAPI reports whether spec is a request or a response.
func isAPI(spec *schema.Spec) bool {
	return spec.Type == schema.TypeRequest || spec.Type == schema.TypeResponse
}

// apiName is the API of a request or response spec: "Fetch" for
// FetchRequest and FetchResponse.
func apiName(spec *schema.Spec) string {
	return strings.TrimSuffix(strings.TrimSuffix(spec.Name, "Request"), "Response")
}

// namesAPI reports whether sel, an entry of Messages or a key of
// MinVersions, names the API of spec: its API name, either side's spec
// name or its API key, in any case.
func namesAPI(sel string, spec *schema.Spec) bool {
	sel = strings.TrimSpace(sel)
	name := apiName(spec)
	return strings.EqualFold(sel, name) || strings.EqualFold(sel, name+"Request") ||
		strings.EqualFold(sel, name+"Response") || sel == strconv.Itoa(int(spec.APIKey))
}

// minVersionOf is the lowest version generated of spec.
func (o Prune) minVersionOf(spec *schema.Spec) int16 {
	if !isAPI(spec) {
		return 0
	}
	if spec.APIKey == apiVersionsKey && spec.Type == schema.TypeResponse {
		return 0
	}
	for sel, floor := range o.MinVersions {
		if namesAPI(sel, spec) {
			return floor
		}
	}
	if spec.APIKey == apiVersionsKey {
		return 0
	}
	return o.MinVersion
}

// selectSpecs returns the specs the options keep, in their order.
func (o Prune) selectSpecs(specs []*schema.Spec) ([]*schema.Spec, error) {
	if o.MinVersion < 0 {
		return nil, fmt.Errorf("minimum version %d is negative", o.MinVersion)
	}
	ix := indexSpecs(specs)
	if err := o.checkFloors(ix); err != nil {
		return nil, err
	}
	keep := map[*schema.Spec]bool{}
	if len(o.Messages) == 0 {
		for _, s := range specs {
			keep[s] = true
		}
	} else {
		apis := false
		for _, sel := range o.Messages {
			found, err := ix.lookup("-messages", sel)
			if err != nil {
				return nil, err
			}
			for _, s := range found {
				keep[s] = true
				apis = apis || isAPI(s)
				if v := o.minVersionOf(s); v > s.ValidVersions.Hi {
					return nil, fmt.Errorf("-messages %s: %s has no version from %d (valid versions %s)", strings.TrimSpace(sel), s.Name, v, s.ValidVersions)
				}
			}
		}
		if apis {
			for _, s := range specs {
				if s.Type == schema.TypeHeader {
					keep[s] = true
				}
			}
		}
	}
	var out []*schema.Spec
	for _, s := range specs {
		if keep[s] && o.minVersionOf(s) <= s.ValidVersions.Hi {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no spec left to generate from version %d", o.MinVersion)
	}
	return out, nil
}

// checkFloors refuses a floor of MinVersions that is negative or names no
// API of the folder.
func (o Prune) checkFloors(ix specIndex) error {
	sels := make([]string, 0, len(o.MinVersions))
	for sel := range o.MinVersions {
		sels = append(sels, sel)
	}
	sort.Strings(sels)
	for _, sel := range sels {
		if o.MinVersions[sel] < 0 {
			return fmt.Errorf("-min-version %s=%d: the version is negative", sel, o.MinVersions[sel])
		}
		found, err := ix.lookup("-min-version", sel)
		if err != nil {
			return err
		}
		if !isAPI(found[0]) {
			return fmt.Errorf("-min-version %s: %s is not a request or response; only APIs are pruned", sel, found[0].Name)
		}
	}
	return nil
}

// specIndex finds specs by the names Messages and MinVersions use.
type specIndex struct {
	byName map[string]*schema.Spec   // lower-case spec name
	byAPI  map[string][]*schema.Spec // lower-case API name, and API key: request and response
	names  []string                  // every name a user can give, as the specs spell them
}

func indexSpecs(specs []*schema.Spec) specIndex {
	ix := specIndex{byName: map[string]*schema.Spec{}, byAPI: map[string][]*schema.Spec{}}
	for _, s := range specs {
		ix.byName[strings.ToLower(s.Name)] = s
		ix.names = append(ix.names, s.Name)
		if isAPI(s) {
			key, name := strconv.Itoa(int(s.APIKey)), strings.ToLower(apiName(s))
			if len(ix.byAPI[name]) == 0 {
				ix.names = append(ix.names, apiName(s))
			}
			ix.byAPI[key] = append(ix.byAPI[key], s)
			ix.byAPI[name] = append(ix.byAPI[name], s)
		}
	}
	return ix
}

// lookup returns the specs sel names, regardless of case: a data or header
// spec alone, or both sides of an API. flag names the option in errors.
func (ix specIndex) lookup(flag, sel string) ([]*schema.Spec, error) {
	sel = strings.TrimSpace(sel)
	if sel == "" {
		return nil, fmt.Errorf("%s: an empty name (two commas in a row?)", flag)
	}
	lower := strings.ToLower(sel)
	if s, ok := ix.byName[lower]; ok {
		if isAPI(s) {
			return ix.byAPI[strconv.Itoa(int(s.APIKey))], nil // both sides
		}
		return []*schema.Spec{s}, nil
	}
	if found := ix.byAPI[lower]; len(found) > 0 {
		return found, nil
	}
	msg := fmt.Sprintf("%s: no spec, API name or API key %q in the input folder", flag, sel)
	if near := closestName(sel, ix.names); near != "" {
		msg += fmt.Sprintf("; did you mean %s?", near)
	}
	return nil, fmt.Errorf("%s", msg)
}
