package generator

import (
	"fmt"
	"sort"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// pkgModel is the Go view of one package's specs: names resolved, clashes
// settled, every struct with its Go fields.
type pkgModel struct {
	name  string
	files []*fileModel
}

type fileModel struct {
	spec    *schema.Spec
	goFile  string
	top     *structModel
	structs []*structModel // top first, then the file's structs in definition order
}

type structModel struct {
	s        *schema.Struct
	spec     *schema.Spec
	goName   string
	top      bool
	fields   []*fieldModel
	tagged   []*fieldModel // fields with a tag, ascending
	maxTag   int           // highest defined tag, -1 when none
	flexible schema.Versions
	hasTags  bool // the message has flexible versions: structs carry UnknownTags
}

type fieldModel struct {
	f      *schema.Field
	goName string
	owner  *structModel
	elem   *structModel // struct and struct-array fields
	// nullable: null is representable (NullString, nil slice, *T) because
	// the field is nullable in at least one version where it is present.
	nullable bool
}

func (fm *fieldModel) kind() schema.Kind { return fm.f.Type.Kind }
func (fm *fieldModel) array() bool       { return fm.f.Type.Array }

// buildModel resolves Go names for every spec of a package.
func buildModel(pkg string, specs []*schema.Spec) (*pkgModel, error) {
	pm := &pkgModel{name: pkg}
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
		fm.top = &structModel{s: fm.spec.Root, spec: fm.spec, goName: name, top: true}
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
			name := ""
			for _, c := range candidates {
				if _, ok := taken[c]; !ok {
					name = c
					break
				}
			}
			for i := 2; name == ""; i++ {
				c := fmt.Sprintf("%s%d", candidates[len(candidates)-1], i)
				if _, ok := taken[c]; !ok {
					name = c
				}
			}
			taken[name] = fmt.Sprintf("struct %s of %s", st.Name, fm.spec.Name)
			fm.structs = append(fm.structs, &structModel{s: st, spec: fm.spec, goName: name})
		}
	}
	for _, fm := range pm.files {
		byStruct := map[*schema.Struct]*structModel{}
		for _, sm := range fm.structs {
			byStruct[sm.s] = sm
		}
		for _, sm := range fm.structs {
			sm.flexible = fm.spec.FlexibleVersions
			sm.hasTags = !fm.spec.FlexibleVersions.Intersect(fm.spec.ValidVersions).Empty()
			sm.maxTag = -1
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
				fld.nullable = f.Type.CanBeNullable() && !f.NullableVersions.Intersect(f.Versions).Empty()
				sm.fields = append(sm.fields, fld)
				if f.HasTag {
					sm.tagged = append(sm.tagged, fld)
					sm.maxTag = max(sm.maxTag, f.Tag)
				}
			}
			sort.SliceStable(sm.tagged, func(i, j int) bool { return sm.tagged[i].f.Tag < sm.tagged[j].f.Tag })
		}
	}
	return pm, nil
}
