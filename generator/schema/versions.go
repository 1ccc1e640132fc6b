package schema

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// NoMax is the upper bound of an open-ended range such as "3+".
const NoMax = math.MaxInt16

// Versions is an inclusive range of message versions, as written in a spec:
// "none", "N", "N-M" or "N+". A range with Lo > Hi is empty.
type Versions struct {
	Lo, Hi int16
}

// None is the empty range.
var None = Versions{Lo: 1, Hi: 0}

// All is every version, "0+".
var All = Versions{Lo: 0, Hi: NoMax}

// ParseVersions reads a version range the way Kafka's Versions.parse does:
// the text is trimmed, bounds are 16-bit and never negative.
func ParseVersions(text string) (Versions, error) {
	s := strings.TrimSpace(text)
	switch {
	case s == "none":
		return None, nil
	case s == "":
		return None, fmt.Errorf("empty version range")
	case strings.HasSuffix(s, "+"):
		lo, err := parseBound(s[:len(s)-1], text)
		if err != nil {
			return None, err
		}
		return Versions{Lo: lo, Hi: NoMax}, nil
	case strings.Contains(s, "-"):
		i := strings.Index(s, "-")
		if i == 0 {
			return None, fmt.Errorf("invalid version range %q: bounds must not be negative", text)
		}
		lo, err := parseBound(s[:i], text)
		if err != nil {
			return None, err
		}
		hi, err := parseBound(s[i+1:], text)
		if err != nil {
			return None, err
		}
		return Versions{Lo: lo, Hi: hi}, nil
	default:
		v, err := parseBound(s, text)
		if err != nil {
			return None, err
		}
		return Versions{Lo: v, Hi: v}, nil
	}
}

func parseBound(s, whole string) (int16, error) {
	n, err := strconv.ParseInt(s, 10, 16)
	if err != nil {
		return 0, fmt.Errorf("invalid version range %q: %q is not a 16-bit version number", whole, s)
	}
	if n < 0 {
		return 0, fmt.Errorf("invalid version range %q: bounds must not be negative", whole)
	}
	return int16(n), nil
}

// Empty reports whether the range holds no version.
func (v Versions) Empty() bool { return v.Lo > v.Hi }

// Open reports whether the range has no upper bound ("N+").
func (v Versions) Open() bool { return !v.Empty() && v.Hi == NoMax }

// Contains reports whether version is in the range.
func (v Versions) Contains(version int16) bool { return version >= v.Lo && version <= v.Hi }

// Intersect returns the versions in both ranges.
func (v Versions) Intersect(o Versions) Versions {
	r := Versions{Lo: max(v.Lo, o.Lo), Hi: min(v.Hi, o.Hi)}
	if r.Empty() {
		return None
	}
	return r
}

// Hull returns the smallest range holding both ranges.
func (v Versions) Hull(o Versions) Versions {
	if v.Empty() {
		return o
	}
	if o.Empty() {
		return v
	}
	return Versions{Lo: min(v.Lo, o.Lo), Hi: max(v.Hi, o.Hi)}
}

// Covers reports whether every version of o is also in v.
func (v Versions) Covers(o Versions) bool {
	return o.Empty() || (!v.Empty() && v.Lo <= o.Lo && v.Hi >= o.Hi)
}

// String renders the range in spec syntax.
func (v Versions) String() string {
	switch {
	case v.Empty():
		return "none"
	case v.Hi == NoMax:
		return fmt.Sprintf("%d+", v.Lo)
	case v.Lo == v.Hi:
		return strconv.Itoa(int(v.Lo))
	default:
		return fmt.Sprintf("%d-%d", v.Lo, v.Hi)
	}
}
