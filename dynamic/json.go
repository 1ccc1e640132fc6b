package dynamic

import (
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/runtime/codec"
)

// Options tune AppendJSON: the options of generated code, and a writer for
// the value of non-null records fields.
type Options struct {
	runtime.JSONOptions
	// Records, when set and RecordsSize is not, writes a non-null records
	// value in place of its base64 (kafkagen dump prints the batches with
	// a RecordsWriter).
	Records func(b, records []byte) []byte
}

// AppendJSON appends a message tree from Decode as JSON at version, byte
// for byte as the generated AppendJSON writes the same message: keys as in
// the spec, fields present at version, tagged ones only when not at their
// default, unknown tagged fields under runtime.UnknownTagsKey unless
// omitted. Errors are the generated code's: a field absent at version
// holding a non-default value that is not ignorable, null where the version
// has none, unknown tags at a version without tag sections.
func (m *Message) AppendJSON(b []byte, st *Struct, version int16, opts Options) ([]byte, error) {
	w := jsonWriter{version: version, opts: opts}
	out, err := w.appendStruct(b, m.plan.Top, st)
	if err != nil {
		return b, codec.FinishJSON(err, m.Spec.Name, version)
	}
	return out, nil
}

type jsonWriter struct {
	version int16
	opts    Options
}

func (w *jsonWriter) appendStruct(b []byte, s *plan.Struct, st *Struct) ([]byte, error) {
	start := len(b)
	for i, f := range s.Fields {
		v := st.Fields[i]
		switch {
		case !f.Present.On.Contains(w.version):
			if !f.Schema.Ignorable && notDefault(f, v) {
				return b, codec.NonDefaultError(f.Schema.JSONKey(), w.version)
			}
			continue
		case f.Tagged.On.Contains(w.version) && !notDefault(f, v):
			continue
		}
		var err error
		if b, err = w.appendField(b, f, v); err != nil {
			return b, err
		}
	}
	if len(st.Unknown) > 0 && !w.opts.OmitUnknownTags {
		if !s.Flexible.On.Contains(w.version) {
			return b, codec.EncodeError("", runtime.ErrTaggedFields, "unknown tagged fields at a version without tag sections")
		}
		b = append(b, `,"`+runtime.UnknownTagsKey+`":`...)
		b = codec.AppendJSONUnknownTags(b, st.Unknown)
	}
	if len(b) == start {
		b = append(b, '{')
	} else {
		b[start] = '{'
	}
	return append(b, '}'), nil
}

// appendField writes ,"key":value for a field present at the version.
func (w *jsonWriter) appendField(b []byte, f *plan.Field, v Value) ([]byte, error) {
	k := f.Schema.JSONKey()
	t := f.Schema.Type
	if v.Null {
		if !f.Nullable.On.Contains(w.version) {
			return b, codec.NullError(k, w.version)
		}
		return append(b, `,"`+k+`":null`...), nil
	}
	if t.Kind == schema.KindRecords && !t.Array && w.opts.RecordsSize {
		b = append(b, `,"`+k+`SizeInBytes":`...)
		return codec.AppendJSONInt(b, int64(len(v.Bytes))), nil
	}
	b = append(b, `,"`+k+`":`...)
	if !t.Array {
		if t.Kind == schema.KindRecords && w.opts.Records != nil {
			return w.opts.Records(b, v.Bytes), nil
		}
		out, err := w.appendValue(b, f, v)
		if err != nil {
			return out, codec.Within(err, k)
		}
		return out, nil
	}
	b = append(b, '[')
	for i, e := range v.Elems {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = w.appendValue(b, f, e); err != nil {
			return b, codec.WithinElem(err, k, i)
		}
	}
	return append(b, ']'), nil
}

// appendValue writes one non-null value of f (an element, for arrays).
func (w *jsonWriter) appendValue(b []byte, f *plan.Field, v Value) ([]byte, error) {
	switch f.Schema.Type.Kind {
	case schema.KindBool:
		return codec.AppendJSONBool(b, v.Int != 0), nil
	case schema.KindFloat64:
		return codec.AppendJSONFloat64(b, v.Float), nil
	case schema.KindUUID:
		return codec.AppendJSONUUID(b, v.UUID), nil
	case schema.KindString:
		return codec.AppendJSONString(b, v.Str), nil
	case schema.KindBytes, schema.KindRecords:
		return codec.AppendJSONBytes(b, v.Bytes), nil
	case schema.KindStruct:
		return w.appendStruct(b, f.Elem, v.Struct)
	}
	return codec.AppendJSONInt(b, v.Int), nil
}
