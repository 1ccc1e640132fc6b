package schema

// resolve builds the file's struct registry (common structs and inline
// structs), binds struct-typed fields to their definitions, and computes the
// effective version ranges: a nested field is present only where its own
// versions and every enclosing struct's usable range overlap.
func (l *loader) resolve() {
	s := l.spec
	byName := map[string]*Struct{}
	for _, c := range s.CommonStructs {
		sub := s.Name + "." + c.Name
		if c.Name == "" || c.Name[0] < 'A' || c.Name[0] > 'Z' {
			l.errorAt(c.Pos, sub, "Common struct name %q must start with an upper-case letter.", c.Name)
			continue
		}
		if _, dup := byName[c.Name]; dup {
			l.errorAt(c.Pos, sub, "Common struct %s was specified twice.", c.Name)
			continue
		}
		byName[c.Name] = c
		s.Structs = append(s.Structs, c)
	}
	common := map[string]bool{}
	for name := range byName {
		common[name] = true
	}
	// Inline structs: defined by the field that carries "fields".
	var collect func(st *Struct, subject string)
	collect = func(st *Struct, subject string) {
		for _, f := range st.Fields {
			sub := subject + "." + f.Name
			if f.Type.Kind != KindStruct {
				continue
			}
			if f.Struct != nil { // inline definition
				if common[f.Type.StructName] {
					l.errorAt(f.Pos, sub, "Can't re-specify the common struct %s as an inline struct.", f.Type.StructName)
				} else if _, dup := byName[f.Type.StructName]; dup {
					l.errorAt(f.Pos, sub, "Struct %s was specified twice.", f.Type.StructName)
				} else {
					byName[f.Type.StructName] = f.Struct
					s.Structs = append(s.Structs, f.Struct)
				}
				collect(f.Struct, sub)
			}
		}
	}
	collect(s.Root, s.Name)
	for _, c := range s.CommonStructs {
		collect(c, s.Name+"."+c.Name)
	}
	// References.
	var bind func(st *Struct, subject string)
	bind = func(st *Struct, subject string) {
		for _, f := range st.Fields {
			sub := subject + "." + f.Name
			if f.Type.Kind != KindStruct {
				continue
			}
			if f.Struct == nil {
				ref, ok := byName[f.Type.StructName]
				if !ok {
					l.errorAt(f.Pos, sub, "Unable to locate a specification for the structure %s", f.Type.StructName)
					continue
				}
				if !ref.Common {
					// Kafka registers every struct-typed field without
					// fields as a new (empty) inline struct: only common
					// structs can be shared.
					l.errorAt(f.Pos, sub, "Struct %s was specified twice. Only common structs can be used by more than one field.", f.Type.StructName)
					continue
				}
				f.Struct = ref
			} else {
				bind(f.Struct, sub)
			}
		}
	}
	bind(s.Root, s.Name)
	for _, c := range s.CommonStructs {
		bind(c, s.Name+"."+c.Name)
	}
	if len(l.diags) > 0 {
		return
	}
	for _, st := range s.Structs {
		st.Used = None
	}
	s.Root.Used = s.ValidVersions
	propagate(s.Root, s.ValidVersions, 0)
	l.resolved = true
}

// propagate walks the struct graph from the root, intersecting ranges.
// Present ranges of fields in shared (common) structs are the hull over uses.
func propagate(st *Struct, usable Versions, depth int) {
	if depth > 64 { // a struct that contains itself: reported by validation
		return
	}
	for _, f := range st.Fields {
		present := f.Versions.Intersect(usable)
		f.Present = f.Present.Hull(present)
		if f.Type.Kind == KindStruct && f.Struct != nil && !present.Empty() {
			before := f.Struct.Used
			f.Struct.Used = f.Struct.Used.Hull(present)
			if f.Struct.Used != before || depth == 0 || !f.Struct.Common {
				propagate(f.Struct, f.Struct.Used, depth+1)
			}
		}
	}
}
