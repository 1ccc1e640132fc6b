package generator

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Prune says what GenerateWith leaves out, for packages that need a few APIs
// and recent versions only (smaller, quicker to compile).
type Prune struct {
	// Messages keeps only the messages named, when not empty. Each entry is
	// a spec name ("FetchRequest", "LeaderChangeMessage"), an API name
	// ("Fetch": its request and response) or an API key ("1"). A request
	// brings its response along and a response its request, and the header
	// specs of the folder (RequestHeader, ResponseHeader) come with any API.
	Messages []string
	// MinVersion prunes the versions of requests and responses below it:
	// their MinVersion is then the higher of it and their lowest valid
	// version, and every other version is refused with
	// runtime.ErrUnsupportedVersion. An API with no version left is left
	// out. Headers and other specs keep all their versions.
	MinVersion int16
}

// minVersionOf is the lowest version generated of spec.
func (o Prune) minVersionOf(spec *schema.Spec) int16 {
	if spec.Type == schema.TypeRequest || spec.Type == schema.TypeResponse {
		return o.MinVersion
	}
	return 0
}

// selectSpecs returns the specs the options keep, in their order.
func (o Prune) selectSpecs(specs []*schema.Spec) ([]*schema.Spec, error) {
	if o.MinVersion < 0 {
		return nil, fmt.Errorf("minimum version %d is negative", o.MinVersion)
	}
	keep := map[*schema.Spec]bool{}
	if len(o.Messages) == 0 {
		for _, s := range specs {
			keep[s] = true
		}
	} else {
		byName := map[string]*schema.Spec{}
		byAPI := map[string][]*schema.Spec{}
		for _, s := range specs {
			byName[s.Name] = s
			if s.Type == schema.TypeRequest || s.Type == schema.TypeResponse {
				key := strconv.Itoa(int(s.APIKey))
				byAPI[key] = append(byAPI[key], s)
				name := strings.TrimSuffix(strings.TrimSuffix(s.Name, "Request"), "Response")
				byAPI[name] = append(byAPI[name], s)
			}
		}
		apis := false
		for _, sel := range o.Messages {
			sel = strings.TrimSpace(sel)
			var found []*schema.Spec
			if s, ok := byName[sel]; ok {
				found = append(found, s)
				if s.Type == schema.TypeRequest || s.Type == schema.TypeResponse {
					found = byAPI[strconv.Itoa(int(s.APIKey))] // both sides
				}
			} else {
				found = byAPI[sel]
			}
			if len(found) == 0 {
				return nil, fmt.Errorf("-messages: no spec, API name or API key %q in the input folder", sel)
			}
			for _, s := range found {
				keep[s] = true
				apis = apis || s.Type == schema.TypeRequest || s.Type == schema.TypeResponse
				if o.minVersionOf(s) > s.ValidVersions.Hi {
					return nil, fmt.Errorf("-messages %s: %s has no version from %d (valid versions %s)", sel, s.Name, o.MinVersion, s.ValidVersions)
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
