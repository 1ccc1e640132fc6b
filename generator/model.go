package generator

import (
	"fmt"
	"sort"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// pkgModel is the Go view of one package's specs: names resolved, clashes
// settled, every struct with its Go fields.
type pkgModel struct {
	name  string
	files []*fileModel
	calls callSet // the helpers of calls.go its code calls
}

type fileModel struct {
	spec    *schema.Spec
	goFile  string
	plan    *plan.Message // set by Generate
	top     *structModel
	structs []*structModel // top first, then the file's structs in definition order
}

type structModel struct {
	s       *schema.Struct
	spec    *schema.Spec
	p       *plan.Struct // set by Generate
	goName  string
	top     bool
	fields  []*fieldModel
	tagged  []*fieldModel // fields with a tag, ascending
	hasTags bool          // the message has flexible versions: structs carry UnknownTags
	byPlan  map[*plan.Field]*fieldModel
	calls   callSet // the package's: helpers the code calls
}

// field is the Go view of a planned field of sm.
func (sm *structModel) field(p *plan.Field) *fieldModel { return sm.byPlan[p] }

type fieldModel struct {
	f      *schema.Field
	p      *plan.Field // set by Generate
	goName string
	owner  *structModel
	elem   *structModel // struct and struct-array fields
	// inlined is elem as planned for this field's in-place versions, for a
	// field whose element's code is inlined (plan.Field.Inlined).
	inlined *structModel
	// nullable: null is representable (NullString, nil slice, *T) because
	// the field is nullable in at least one version where it is present.
	nullable bool
}

// attachPlan links the Go view of a file to the plan of its message.
func (fm *fileModel) attachPlan(m *plan.Message) {
	fm.plan = m
	byStruct := map[*schema.Struct]*plan.Struct{}
	for _, ps := range m.Structs {
		byStruct[ps.Schema] = ps
	}
	for _, sm := range fm.structs {
		sm.p = byStruct[sm.s]
		sm.byPlan = map[*plan.Field]*fieldModel{}
		for i, f := range sm.fields {
			f.p = sm.p.Fields[i]
			sm.byPlan[f.p] = f
		}
	}
	for _, sm := range fm.structs {
		for _, f := range sm.fields {
			if f.p.Inlined != nil {
				f.inlined = f.elem.view(f.p.Inlined)
			}
		}
	}
}

// view is sm with the plan ps, a plan of the same struct for fewer versions.
func (sm *structModel) view(ps *plan.Struct) *structModel {
	v := *sm
	v.p, v.fields, v.tagged, v.byPlan = ps, nil, nil, map[*plan.Field]*fieldModel{}
	for i, f := range sm.fields {
		g := *f
		g.p, g.owner = ps.Fields[i], &v
		v.fields = append(v.fields, &g)
		v.byPlan[g.p] = &g
	}
	for _, t := range ps.Tagged {
		v.tagged = append(v.tagged, v.byPlan[t])
	}
	return &v
}

func (fm *fieldModel) kind() schema.Kind { return fm.f.Type.Kind }
func (fm *fieldModel) array() bool       { return fm.f.Type.Array }

// buildModel resolves Go names for every spec of a package.
func buildModel(pkg string, specs []*schema.Spec) (*pkgModel, error) {
	pm := &pkgModel{name: pkg, calls: callSet{}}
	sorted := append([]*schema.Spec(nil), specs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })

	// Package-level identifiers the generator itself declares.
	taken := map[string]string{
		"NewByName": "registry", "NewRequest": "registry", "NewResponse": "registry",
		"NewMetadataRecord": "registry", "SpecNames": "registry",
		"APIKeyName": "api keys", "APIKeys": "api keys",
	}
	files := map[string]string{"kafkagen_registry.go": "registry", APIKeysFile: "api keys"}
	for _, spec := range sorted {
		fm := &fileModel{spec: spec, goFile: fileName(spec.Name)}
		if prev, ok := files[fm.goFile]; ok {
			return nil, fmt.Errorf("%s: spec %s would be written to %s, which %s already uses", spec.File, spec.Name, fm.goFile, prev)
		}
		files[fm.goFile] = spec.Name
		pm.files = append(pm.files, fm)
	}
	// Top-level names first: they are the most visible and are never renamed.
	for _, fm := range pm.files {
		name := goName(fm.spec.Name)
		if prev, ok := taken[name]; ok {
			return nil, fmt.Errorf("%s: message %s has the Go name %s, which %s already uses", fm.spec.File, fm.spec.Name, name, prev)
		}
		taken[name] = "message " + fm.spec.Name
		ctor := "New" + name
		if prev, ok := taken[ctor]; ok {
			return nil, fmt.Errorf("%s: the constructor %s of message %s clashes with %s", fm.spec.File, ctor, fm.spec.Name, prev)
		}
		taken[ctor] = "the constructor of " + fm.spec.Name
		fm.top = &structModel{s: fm.spec.Root, spec: fm.spec, goName: name, top: true, calls: pm.calls}
		fm.structs = []*structModel{fm.top}
	}
	// Nested structs: Message+Struct, or the struct name alone when it already
	// starts with the message name (MetadataResponseTopic). A clash falls back
	// to the full prefix, then to a numeric suffix.
	for _, fm := range pm.files {
		msg := goName(fm.spec.Name)
		for _, st := range fm.spec.Structs {
			sn := goName(st.Name)
			candidates := []string{msg + sn}
			if len(sn) > len(msg) && sn[:len(msg)] == msg {
				candidates = []string{sn, msg + sn}
			}
			free := func(c string) bool {
				_, typ := taken[c]
				_, ctor := taken["New"+c]
				return !typ && !ctor
			}
			name := ""
			for _, c := range candidates {
				if free(c) {
					name = c
					break
				}
			}
			for i := 2; name == ""; i++ {
				if c := fmt.Sprintf("%s%d", candidates[len(candidates)-1], i); free(c) {
					name = c
				}
			}
			taken[name] = fmt.Sprintf("struct %s of %s", st.Name, fm.spec.Name)
			taken["New"+name] = fmt.Sprintf("the constructor of struct %s of %s", st.Name, fm.spec.Name)
			fm.structs = append(fm.structs, &structModel{s: st, spec: fm.spec, goName: name, calls: pm.calls})
		}
	}
	for _, fm := range pm.files {
		byStruct := map[*schema.Struct]*structModel{}
		for _, sm := range fm.structs {
			byStruct[sm.s] = sm
		}
		for _, sm := range fm.structs {
			sm.hasTags = fm.spec.HasTagSections()
			used := map[string]bool{}
			reserved := reservedFieldNames
			if sm.top {
				reserved = reservedTopFieldNames
			}
			for _, f := range sm.s.Fields {
				name := goName(f.Name)
				if reserved[name] {
					name += "_"
				}
				for used[name] {
					name += "_"
				}
				used[name] = true
				fld := &fieldModel{f: f, goName: name, owner: sm}
				if f.Type.Kind == schema.KindStruct {
					fld.elem = byStruct[f.Struct]
				}
				fld.nullable = f.Nullable()
				sm.fields = append(sm.fields, fld)
				if f.HasTag {
					sm.tagged = append(sm.tagged, fld)
				}
			}
			sort.SliceStable(sm.tagged, func(i, j int) bool { return sm.tagged[i].f.Tag < sm.tagged[j].f.Tag })
		}
	}
	return pm, nil
}
