package gomodel

import (
	"fmt"
	"sort"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Names is the Go model of one package's specs: the name of every Go
// file, type and field, as data keyed on the schema's nodes (protogen's
// GoName on its Message and Field), with clashes settled. The printers walk
// the plan and look the names of its structs and fields up here.
type Names struct {
	Files   []*SpecFile     // by spec name
	GoFiles map[string]bool // the files of Files
	types   map[*schema.Struct]string
	fields  map[*schema.Field]string
}

// SpecFile is one spec and the Go file it is printed to.
type SpecFile struct {
	Spec   *schema.Spec
	GoFile string
}

// TypeName is the Go type of a struct (the message body for the root).
func (n *Names) TypeName(st *schema.Struct) string { return n.types[st] }

// FieldName is the Go name of a field.
func (n *Names) FieldName(f *schema.Field) string { return n.fields[f] }

// Build resolves Go names for every spec of a package.
func Build(specs []*schema.Spec) (*Names, error) {
	n := &Names{GoFiles: map[string]bool{}, types: map[*schema.Struct]string{}, fields: map[*schema.Field]string{}}
	sorted := append([]*schema.Spec(nil), specs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })

	// Package-level identifiers the generator itself declares.
	taken := map[string]string{
		"NewByName": "registry", "NewRequest": "registry", "NewResponse": "registry",
		"NewMetadataRecord": "registry", "NewCoordinatorKey": "registry", "NewCoordinatorValue": "registry", "SpecNames": "registry",
		"APIKeyName": "api keys", "APIKeys": "api keys",
	}
	files := map[string]string{RegistryFile: "registry", APIKeysFile: "api keys"}
	for _, spec := range sorted {
		sf := &SpecFile{Spec: spec, GoFile: FileName(spec.Name)}
		if prev, ok := files[sf.GoFile]; ok {
			return nil, fmt.Errorf("%s: spec %s would be written to %s, which %s already uses", spec.File, spec.Name, sf.GoFile, prev)
		}
		files[sf.GoFile] = spec.Name
		n.GoFiles[sf.GoFile] = true
		n.Files = append(n.Files, sf)
	}
	// Top-level names first: they are the most visible and are never renamed.
	for _, sf := range n.Files {
		name := GoName(sf.Spec.Name)
		if prev, ok := taken[name]; ok {
			return nil, fmt.Errorf("%s: message %s has the Go name %s, which %s already uses", sf.Spec.File, sf.Spec.Name, name, prev)
		}
		taken[name] = "message " + sf.Spec.Name
		for _, ctor := range constructors(name) {
			if prev, ok := taken[ctor]; ok {
				return nil, fmt.Errorf("%s: the constructor %s of message %s clashes with %s", sf.Spec.File, ctor, sf.Spec.Name, prev)
			}
			taken[ctor] = "the constructor of " + sf.Spec.Name
		}
		n.types[sf.Spec.Root] = name
	}
	for _, sf := range n.Files {
		n.nameStructs(sf.Spec, taken)
	}
	for _, sf := range n.Files {
		n.nameFields(sf.Spec.Root, true)
		for _, st := range sf.Spec.Structs {
			n.nameFields(st, false)
		}
	}
	return n, nil
}

// nameStructs names the nested structs of spec: Message+Struct, or the
// struct name alone when it already starts with the message name
// (MetadataResponseTopic). A clash falls back to the full prefix, then to
// a numeric suffix.
func (n *Names) nameStructs(spec *schema.Spec, taken map[string]string) {
	msg := GoName(spec.Name)
	for _, st := range spec.Structs {
		sn := GoName(st.Name)
		candidates := []string{msg + sn}
		if len(sn) > len(msg) && sn[:len(msg)] == msg {
			candidates = []string{sn, msg + sn}
		}
		free := func(c string) bool {
			for _, id := range append(constructors(c), c) {
				if _, ok := taken[id]; ok {
					return false
				}
			}
			return true
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
		taken[name] = fmt.Sprintf("struct %s of %s", st.Name, spec.Name)
		for _, ctor := range constructors(name) {
			taken[ctor] = fmt.Sprintf("the constructor of struct %s of %s", st.Name, spec.Name)
		}
		n.types[st] = name
	}
}

// constructors are the package-level functions generated for the type
// name: NewX (a pointer) and MakeX (a value).
func constructors(name string) []string { return []string{"New" + name, "Make" + name} }

// nameFields names the fields of st, avoiding the names its methods and
// its own fields use (a top-level message has more methods).
func (n *Names) nameFields(st *schema.Struct, top bool) {
	used := map[string]bool{}
	reserved := reservedFieldNames
	if top {
		reserved = reservedTopFieldNames
	}
	for _, f := range st.Fields {
		name := GoName(f.Name)
		if reserved[name] {
			name += "_"
		}
		for used[name] {
			name += "_"
		}
		used[name] = true
		n.fields[f] = name
	}
}
