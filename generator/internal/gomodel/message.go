// Package gomodel is the Go model kafkagen prints from: the Go names of
// every file, type and field of a package (keyed on the schema's nodes),
// the Go types and defaults of fields, their doc comments from the specs'
// about texts, the package's api keys, and the Go tests of version
// conditions. The codec and JSON printers share it.
package gomodel

import "github.com/kafkagen/kafkagen/generator/plan"

// RegistryFile is the file holding a package's registry.
const RegistryFile = "kafkagen_registry.go"

// APIKeysFile is the file holding a package's api key constants.
const APIKeysFile = "kafkagen_apikeys.go"

// Message is what a printer of one spec walks: the spec's plan, with the
// Go names of the package.
type Message struct {
	Names *Names
	Plan  *plan.Message
}

// TypeName is the Go type of a planned struct.
func (m *Message) TypeName(s *plan.Struct) string { return m.Names.TypeName(s.Schema) }

// FieldName is the Go name of a planned field.
func (m *Message) FieldName(f *plan.Field) string { return m.Names.FieldName(f.Schema) }
