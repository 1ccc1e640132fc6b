package main

import (
	"fmt"
	"strconv"
	"strings"
)

// The list flags of the generate command. Their values are checked after
// flag parsing so that a bad one is reported in one line (the flag package
// would add the whole usage text).

// parseMessages splits the value of -messages: spec names, API names or
// API keys, comma-separated, none of them empty.
func parseMessages(v string) ([]string, error) {
	var names []string
	empty := false
	for _, m := range strings.Split(v, ",") {
		if m = strings.TrimSpace(m); m == "" {
			empty = true
			continue
		}
		names = append(names, m)
	}
	switch {
	case len(names) == 0:
		// An unset variable, say, would otherwise generate every message
		// without a word.
		return nil, fmt.Errorf("-messages %q names no message: give spec names, API names or API keys, comma-separated", v)
	case empty:
		return nil, fmt.Errorf("-messages %q has an empty name between its commas", v)
	}
	return names, nil
}

// parseMinVersion reads the value of -min-version: a version for every API
// and NAME=VERSION floors for single APIs, comma-separated ("4",
// "4,ApiVersions=0", "Metadata=1"). It returns the version for every API
// (-1 when the value gives none) and the floors.
func parseMinVersion(v string) (int16, map[string]int16, error) {
	all := int16(-1)
	floors := map[string]int16{}
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		name, version, perAPI := strings.Cut(item, "=")
		name, version = strings.TrimSpace(name), strings.TrimSpace(version)
		if !perAPI {
			version = name
		}
		n, err := strconv.ParseInt(version, 10, 16)
		switch {
		case item == "":
			return 0, nil, fmt.Errorf("-min-version %q has an empty item between its commas", v)
		case perAPI && name == "":
			return 0, nil, fmt.Errorf("-min-version %q: %q names no API", v, item)
		case err != nil || n < 0:
			return 0, nil, fmt.Errorf("-min-version %q: %q is not a version (0 to 32767)", v, version)
		case !perAPI && all >= 0:
			return 0, nil, fmt.Errorf("-min-version %q gives two versions for every API", v)
		case !perAPI:
			all = int16(n)
		default:
			floors[name] = int16(n)
		}
	}
	return all, floors, nil
}
