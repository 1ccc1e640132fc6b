package gomodel

import (
	"sort"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// APIKey is one api of a package: its key, Kafka's name for it (the
// spec name without Request or Response, as Kafka's ApiKeys names them:
// "Produce", "ApiVersions") and the specs that carry it.
type APIKey struct {
	Key   int16
	Name  string
	Specs []string
}

// APIKeys collects the apis of the request and response specs of a
// package, sorted by key. A request's name wins over its response's.
func (n *Names) APIKeys() []*APIKey {
	byKey := map[int16]*APIKey{}
	for _, sf := range n.Files {
		spec := sf.Spec
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
			e = &APIKey{Key: spec.APIKey, Name: name}
			byKey[spec.APIKey] = e
		} else if suffix == "Request" {
			e.Name = name
		}
		e.Specs = append(e.Specs, spec.Name)
	}
	out := make([]*APIKey, 0, len(byKey))
	for _, e := range byKey {
		sort.Strings(e.Specs)
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
