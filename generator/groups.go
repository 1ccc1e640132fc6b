package generator

import (
	"slices"
	"sort"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// fixedGroup is a run of consecutive untagged fixed-width fields, some of
// them present at some versions only. Its code is specialised per version
// interval: within each interval the present fields are written or read as
// one run with a single bounds check, the way hand-written code for one
// version would.
type fixedGroup struct {
	fields    []*fieldModel
	intervals []groupInterval
}

type groupInterval struct {
	versions schema.Versions
	present  []*fieldModel
}

// fixedGroups maps the index of each group's first field to the group.
// Groups whose fields are all present everywhere are plain runs instead.
func fixedGroups(sm *structModel) map[int]*fixedGroup {
	groups := map[int]*fixedGroup{}
	start := -1
	for i := 0; i <= len(sm.fields); i++ {
		ok := false
		if i < len(sm.fields) {
			fm := sm.fields[i]
			_, _, never := fm.inlineCond()
			ok = !fm.f.HasTag && fm.fixedWidth() > 0 && !never
		}
		if ok && start < 0 {
			start = i
		}
		if !ok && start >= 0 {
			if g := newFixedGroup(sm, sm.fields[start:i]); g != nil {
				groups[start] = g
			}
			start = -1
		}
	}
	return groups
}

func newFixedGroup(sm *structModel, fields []*fieldModel) *fixedGroup {
	if len(fields) < 2 {
		return nil
	}
	w := sm.within()
	points := []int{int(w.Lo), int(w.Hi) + 1}
	conditional := false
	for _, fm := range fields {
		iv := fm.inlineVersions().Intersect(w)
		if iv.Empty() {
			continue
		}
		if iv != w {
			conditional = true
		}
		points = append(points, int(iv.Lo), int(iv.Hi)+1)
	}
	if !conditional {
		return nil // a plain run
	}
	sort.Ints(points)
	g := &fixedGroup{fields: fields}
	for i := 0; i+1 < len(points); i++ {
		lo, hi := points[i], points[i+1]-1
		if lo > hi || lo < int(w.Lo) || hi > int(w.Hi) {
			continue
		}
		iv := groupInterval{versions: schema.Versions{Lo: int16(lo), Hi: int16(hi)}}
		for _, fm := range fields {
			if fm.inlineVersions().Contains(int16(lo)) {
				iv.present = append(iv.present, fm)
			}
		}
		g.intervals = append(g.intervals, iv)
	}
	return g
}

// switchOn emits one case per interval, the last one as default.
func (g *fixedGroup) switchOn(sm *structModel, body func(groupInterval) ([]Code, error)) (Code, error) {
	var cases []Code
	for i, iv := range g.intervals {
		stmts, err := body(iv)
		if err != nil {
			return nil, err
		}
		if i == len(g.intervals)-1 {
			cases = append(cases, Default().Block(stmts...))
			continue
		}
		cond, _, _ := verCond(iv.versions, sm.within())
		cases = append(cases, Case(cond).Block(stmts...))
	}
	return Switch().Block(cases...), nil
}

// write writes the group's present fields.
func (g *fixedGroup) write(sm *structModel, cx *emitCtx) (Code, error) {
	return g.switchOn(sm, func(iv groupInterval) ([]Code, error) {
		if len(iv.present) == 0 {
			return nil, nil
		}
		return []Code{writeRun(iv.present, cx)}, nil
	})
}

// read reads the group's present fields and sets the absent ones to their
// defaults.
func (g *fixedGroup) read(sm *structModel, cx *emitCtx) (Code, error) {
	return g.switchOn(sm, func(iv groupInterval) ([]Code, error) {
		var out []Code
		if len(iv.present) > 0 {
			out = append(out, readRun(iv.present, cx)...)
		}
		for _, fm := range g.fields {
			if !slices.Contains(iv.present, fm) {
				def, err := fm.setDefault(cx.r().Dot(fm.goName))
				if err != nil {
					return nil, err
				}
				out = append(out, def...)
			}
		}
		return out, nil
	})
}
