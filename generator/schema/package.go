package schema

import (
	"fmt"
	"sort"
)

// CheckPackage applies the rules that span the files of one package: unique
// API keys, a response for every request and a request for every response
// (rules 44, 46), unique metadata record types (rule 47), coordinator
// record keys and values in pairs, one of each per record type (Kafka 4.1),
// and unique message names. Specs without an apiKey were reported by Load and are skipped here.
func CheckPackage(specs []*Spec) Diagnostics {
	var diags Diagnostics
	report := func(s *Spec, format string, args ...any) {
		line, col := s.Position(s.Pos)
		diags = append(diags, Diagnostic{File: s.File, Line: line, Col: col, Subject: s.Name, Text: fmt.Sprintf(format, args...)})
	}
	names := map[string]*Spec{}
	requests := map[int16]*Spec{}
	responses := map[int16]*Spec{}
	records := map[int16]*Spec{}
	coordKeys := map[int16]*Spec{}
	coordValues := map[int16]*Spec{}
	for _, s := range specs {
		if s == nil {
			continue
		}
		if prev, dup := names[s.Name]; dup {
			report(s, "Duplicate message name %s: %s also defines it.", s.Name, prev.File)
		} else {
			names[s.Name] = s
		}
		if !s.HasAPIKey {
			continue
		}
		switch s.Type {
		case TypeRequest, TypeResponse:
			m := requests
			if s.Type == TypeResponse {
				m = responses
			}
			if prev, dup := m[s.APIKey]; dup {
				report(s, "Found more than one %s with API key %d. Original claimant: %s (%s).", s.Type, s.APIKey, prev.Name, prev.File)
			} else {
				m[s.APIKey] = s
			}
		case TypeCoordinatorKey, TypeCoordinatorValue:
			m, part := coordKeys, "key"
			if s.Type == TypeCoordinatorValue {
				m, part = coordValues, "value"
			}
			if prev, dup := m[s.APIKey]; dup {
				report(s, "Duplicate coordinator record %s for type %d. Original claimant: %s. New claimant: %s", part, s.APIKey, prev.Name, s.Name)
			} else {
				m[s.APIKey] = s
			}
		case TypeMetadata:
			if prev, dup := records[s.APIKey]; dup {
				report(s, "Duplicate metadata record entry for type %d. Original claimant: %s. New claimant: %s", s.APIKey, prev.Name, s.Name)
			} else {
				records[s.APIKey] = s
			}
		}
	}
	for key, req := range requests {
		if _, ok := responses[key]; !ok {
			report(req, "failed to find response for API key %d", key)
		}
	}
	for key, resp := range responses {
		if _, ok := requests[key]; !ok {
			report(resp, "failed to find request for API key %d", key)
		}
	}
	// Kafka's CoordinatorRecordType pairs each key with its value.
	for key, s := range coordKeys {
		if _, ok := coordValues[key]; !ok {
			report(s, "Coordinator record %d has a key (%s) but no value.", key, s.Name)
		}
	}
	for key, s := range coordValues {
		if _, ok := coordKeys[key]; !ok {
			report(s, "Coordinator record %d has a value (%s) but no key.", key, s.Name)
		}
	}
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i], diags[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Text < b.Text
	})
	return diags
}
