// Package dynamic reads Kafka messages knowing nothing but their spec files,
// the way protobuf's dynamicpb reads messages from descriptors: a proxy, a
// sniffer or kafkagen dump decodes any frame of any Kafka version from the
// spec folder of that version, with nothing generated or compiled.
//
// Load a spec folder, then decode request frames (their header names the
// api key and version), response frames (given the key and version of
// their request) or bare messages into a value tree, and print it as JSON:
//
//	specs, err := dynamic.Load("kafka/clients/src/main/resources/common/message", "")
//	frame, err := specs.DecodeRequest(data) // without the 4-byte size prefix
//	out, err := frame.AppendJSON(nil, dynamic.Options{})
//
// A spec is read as its plan says (package generator/plan, the same plan
// the generated code is printed from), with the generated decoders' reads
// (runtime/codec's Decoder): Decode accepts exactly what the generated
// Decode accepts, fails with the same *runtime.Error (field path, byte
// offset, sentinel), and AppendJSON writes what the generated AppendJSON
// of kafkagen -json writes, byte for byte.
package dynamic

import (
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// Specs are the messages of a spec folder, each planned once: requests and
// responses by api key, every spec by name, and the headers that frame
// requests and responses.
type Specs struct {
	byName         map[string]*Message
	requests       map[int16]*Message
	responses      map[int16]*Message
	requestHeader  *Message
	responseHeader *Message
}

// Message is one spec ready to read: the spec and its plan.
type Message struct {
	Spec *schema.Spec
	plan *plan.Message
}

// NewMessage plans one loaded spec for reading.
func NewMessage(spec *schema.Spec) *Message {
	return &Message{Spec: spec, plan: plan.Build(spec, plan.Options{})}
}

// Load loads every spec of the folder dir with the rules of a Kafka
// release (see schema.RulesFor; "" for the current rules). A folder that
// does not exist or holds no spec is an error, not an empty Specs: it is
// the mistake of a wrong path.
func Load(dir, release string) (*Specs, error) {
	rules, err := schema.RulesFor(release)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	specs, err := rules.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("%s: no spec files (*.json)", dir)
	}
	return New(specs), nil
}

// New indexes loaded specs.
func New(specs []*schema.Spec) *Specs {
	s := &Specs{byName: map[string]*Message{}, requests: map[int16]*Message{}, responses: map[int16]*Message{}}
	for _, spec := range specs {
		m := NewMessage(spec)
		s.byName[spec.Name] = m
		switch {
		case spec.Type == schema.TypeHeader && spec.Name == "RequestHeader":
			s.requestHeader = m
		case spec.Type == schema.TypeHeader && spec.Name == "ResponseHeader":
			s.responseHeader = m
		case spec.Type == schema.TypeRequest && spec.HasAPIKey:
			s.requests[spec.APIKey] = m
		case spec.Type == schema.TypeResponse && spec.HasAPIKey:
			s.responses[spec.APIKey] = m
		}
	}
	return s
}

// Framing reports why the specs cannot read request and response frames:
// the folder has no RequestHeader and ResponseHeader specs, or no request.
func (s *Specs) Framing() error {
	switch {
	case s.requestHeader == nil || s.responseHeader == nil:
		return errors.New("the spec folder has no RequestHeader.json and ResponseHeader.json")
	case len(s.requests) == 0:
		return errors.New("the spec folder has no request specs")
	}
	return nil
}

// Message returns the spec named name ("FetchRequest"), or nil.
func (s *Specs) Message(name string) *Message { return s.byName[name] }

// Request returns the request spec of an api key, or nil.
func (s *Specs) Request(apiKey int16) *Message { return s.requests[apiKey] }

// Response returns the response spec of an api key, or nil.
func (s *Specs) Response(apiKey int16) *Message { return s.responses[apiKey] }

// Names lists the spec names, sorted.
func (s *Specs) Names() []string {
	names := make([]string, 0, len(s.byName))
	for n := range s.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
