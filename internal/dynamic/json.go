package dynamic

import (
	"fmt"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/runtime"
)

// Options tune AppendJSON: the options of generated code, and a writer for
// the value of non-null records fields.
type Options struct {
	runtime.JSONOptions
	// Records, when set and RecordsSize is not, writes a non-null records
	// value in place of its base64 (kafkagen dump prints the batches).
	Records func(b, records []byte) []byte
}

// AppendJSON appends a message tree from Decode as JSON at version, byte
// for byte as the generated AppendJSON writes the same message: keys as in
// the spec, fields present at version, tagged ones only when not at their
// default, unknown tagged fields under runtime.UnknownTagsKey unless
// omitted. Errors are the generated code's: a field absent at version
// holding a non-default value that is not ignorable, null where the version
// has none, unknown tags at a version without tag sections.
func AppendJSON(b []byte, spec *schema.Spec, st *Struct, version int16, opts Options) ([]byte, error) {
	w := jsonWriter{version: version, flexible: spec.FlexibleVersions.Contains(version), opts: opts}
	out, err := w.appendStruct(b, st)
	if err != nil {
		return b, runtime.FinishJSON(err, spec.Name, version)
	}
	return out, nil
}

type jsonWriter struct {
	version  int16
	flexible bool
	opts     Options
}

// jsonKey is a field's JSON key: the spec name, first letter lower case.
func jsonKey(f *schema.Field) string { return strings.ToLower(f.Name[:1]) + f.Name[1:] }

func (w *jsonWriter) appendStruct(b []byte, st *Struct) ([]byte, error) {
	start := len(b)
	for i, f := range st.Def.Fields {
		v := st.Fields[i]
		if !f.Versions.Contains(w.version) {
			if !f.Ignorable {
				if nd, err := notDefault(f, v); err != nil || nd {
					return b, nonDefault(f, w.version, err)
				}
			}
			continue
		}
		if f.TaggedAt(w.version) {
			nd, err := notDefault(f, v)
			if err != nil {
				return b, err
			}
			if !nd {
				continue
			}
		}
		var err error
		if b, err = w.appendField(b, f, v); err != nil {
			return b, err
		}
	}
	if len(st.Unknown) > 0 && !w.opts.OmitUnknownTags {
		if !w.flexible {
			return b, runtime.EncodeError("", runtime.ErrTaggedFields, "unknown tagged fields at a version without tag sections")
		}
		b = append(b, `,"`+runtime.UnknownTagsKey+`":`...)
		b = runtime.AppendJSONUnknownTags(b, st.Unknown)
	}
	if len(b) == start {
		b = append(b, '{')
	} else {
		b[start] = '{'
	}
	return append(b, '}'), nil
}

func nonDefault(f *schema.Field, version int16, err error) error {
	if err != nil {
		return err
	}
	return runtime.NonDefaultError(jsonKey(f), version)
}

// appendField writes ,"key":value for a field present at the version.
func (w *jsonWriter) appendField(b []byte, f *schema.Field, v Value) ([]byte, error) {
	k := jsonKey(f)
	t := f.Type
	if v.Null {
		if !f.NullableAt(w.version) {
			return b, runtime.NullError(k, w.version)
		}
		b = append(b, `,"`+k+`":null`...)
		return b, nil
	}
	if t.Kind == schema.KindRecords && !t.Array && w.opts.RecordsSize {
		b = append(b, `,"`+k+`SizeInBytes":`...)
		return runtime.AppendJSONInt(b, int64(len(v.Bytes))), nil
	}
	b = append(b, `,"`+k+`":`...)
	if !t.Array {
		if t.Kind == schema.KindRecords && w.opts.Records != nil {
			return w.opts.Records(b, v.Bytes), nil
		}
		out, err := w.appendValue(b, t.Kind, v)
		if err != nil {
			return out, runtime.Within(err, k)
		}
		return out, nil
	}
	b = append(b, '[')
	for i, e := range v.Elems {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = w.appendValue(b, t.Kind, e); err != nil {
			return b, runtime.WithinElem(err, k, i)
		}
	}
	return append(b, ']'), nil
}

// appendValue writes one non-null value of kind k.
func (w *jsonWriter) appendValue(b []byte, k schema.Kind, v Value) ([]byte, error) {
	switch k {
	case schema.KindBool:
		return runtime.AppendJSONBool(b, v.Int != 0), nil
	case schema.KindInt8, schema.KindInt16, schema.KindInt32, schema.KindInt64, schema.KindUint16, schema.KindUint32:
		return runtime.AppendJSONInt(b, v.Int), nil
	case schema.KindFloat64:
		return runtime.AppendJSONFloat64(b, v.Float), nil
	case schema.KindUUID:
		return runtime.AppendJSONUUID(b, v.UUID), nil
	case schema.KindString:
		return runtime.AppendJSONString(b, v.Str), nil
	case schema.KindBytes, schema.KindRecords:
		return runtime.AppendJSONBytes(b, v.Bytes), nil
	case schema.KindStruct:
		return w.appendStruct(b, v.Struct)
	}
	return b, fmt.Errorf("dynamic: unknown kind %v", k)
}
