package compat

import (
	"sort"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// vset is a set of versions: ranges in increasing order, neither overlapping
// nor adjacent. Every rule is a question about the versions where some
// property of the old spec and some property of the new one disagree; a vset
// is the answer, rendered in diagnostics as "0, 3-5, 7+".
type vset []schema.Versions

// Empty reports whether the set holds no version.
func (s vset) Empty() bool { return len(s) == 0 }

// String renders the set in spec syntax, ranges separated by commas.
func (s vset) String() string {
	if len(s) == 0 {
		return "none"
	}
	parts := make([]string, len(s))
	for i, r := range s {
		parts[i] = r.String()
	}
	return strings.Join(parts, ", ")
}

// versionsWord is "version" or "versions", as the set needs.
func (s vset) versionsWord() string {
	if len(s) == 1 && s[0].Lo == s[0].Hi {
		return "version " + s.String()
	}
	return "versions " + s.String()
}

// add appends a range that starts after every range of s, merging it with
// the last one when they touch.
func (s vset) add(r schema.Versions) vset {
	if r.Empty() {
		return s
	}
	if n := len(s); n > 0 && int32(s[n-1].Hi)+1 >= int32(r.Lo) {
		s[n-1].Hi = max(s[n-1].Hi, r.Hi)
		return s
	}
	return append(s, r)
}

// where returns the versions of span at which holds is true. The ranges are
// every range the predicate looks at: between two of their bounds the answer
// cannot change, so the predicate runs once per segment, never once per
// version (span may be all 32768 of them).
func where(span schema.Versions, ranges []schema.Versions, holds func(v int16) bool) vset {
	if span.Empty() {
		return nil
	}
	lo, end := int32(span.Lo), int32(span.Hi)+1
	cuts := []int32{lo, end}
	for _, r := range ranges {
		if r.Empty() {
			continue
		}
		for _, c := range []int32{int32(r.Lo), int32(r.Hi) + 1} {
			if c > lo && c < end {
				cuts = append(cuts, c)
			}
		}
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i] < cuts[j] })
	var out vset
	for i := 0; i+1 < len(cuts); i++ {
		if cuts[i] == cuts[i+1] {
			continue
		}
		if holds(int16(cuts[i])) {
			out = out.add(schema.Versions{Lo: int16(cuts[i]), Hi: int16(cuts[i+1] - 1)})
		}
	}
	return out
}
