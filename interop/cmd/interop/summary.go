package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// apiVersion is one "<ApiName> v<version>" key of the broker's stats.
type apiVersion struct {
	API     string
	Version int
}

func (p apiVersion) String() string { return p.API + " v" + strconv.Itoa(p.Version) }

// parseAPIVersion splits a stats key; ok is false for a key of another form.
func parseAPIVersion(key string) (apiVersion, bool) {
	api, ver, ok := strings.Cut(key, " v")
	if !ok {
		return apiVersion{}, false
	}
	v, err := strconv.Atoi(ver)
	if err != nil {
		return apiVersion{}, false
	}
	return apiVersion{api, v}, true
}

// pairsByClient gathers the api/version pairs of every client id of each
// client, sorted by api name and version. Client ids of no known client
// are gathered under "other".
func pairsByClient(s *stats, specs []clientSpec) map[string][]apiVersion {
	sets := map[string]map[apiVersion]bool{}
	for id, apis := range s.Clients {
		client := clientOf(id, specs)
		if client == "" {
			client = "other"
		}
		if sets[client] == nil {
			sets[client] = map[apiVersion]bool{}
		}
		for key := range apis {
			if p, ok := parseAPIVersion(key); ok {
				sets[client][p] = true
			}
		}
	}
	out := map[string][]apiVersion{}
	for client, set := range sets {
		for p := range set {
			out[client] = append(out[client], p)
		}
		slices.SortFunc(out[client], func(a, b apiVersion) int {
			return cmp.Or(cmp.Compare(a.API, b.API), cmp.Compare(a.Version, b.Version))
		})
	}
	return out
}

// distinctPairs counts the api/version pairs over all clients.
func distinctPairs(s *stats) int {
	set := map[string]bool{}
	for _, apis := range s.Clients {
		for key := range apis {
			set[key] = true
		}
	}
	return len(set)
}

// printPairs writes one line per client: the pairs it used.
func printPairs(w io.Writer, pairs map[string][]apiVersion, specs []clientSpec) {
	names := make([]string, 0, len(specs)+1)
	for _, s := range specs {
		names = append(names, s.Name)
	}
	for _, name := range append(names, "other") {
		ps := pairs[name]
		if len(ps) == 0 {
			continue
		}
		strs := make([]string, len(ps))
		for i, p := range ps {
			strs[i] = p.String()
		}
		fmt.Fprintf(w, "api-versions %s (%d): %s\n", name, len(ps), strings.Join(strs, ", "))
	}
}
