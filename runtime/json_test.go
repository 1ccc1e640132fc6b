package runtime

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Java's Double.toString output for these values (JDK 19 and later, the
// shortest-digits algorithm), which Jackson writes for a DoubleNode.
var javaDoubles = []struct {
	f    float64
	java string
}{
	{1, "1.0"}, {-1, "-1.0"}, {1.5, "1.5"}, {100, "100.0"}, {0.1, "0.1"},
	{720.324, "720.324"}, {-1324.819, "-1324.819"}, {0.001, "0.001"},
	{0.0001, "1.0E-4"}, {1234567, "1234567.0"}, {9999999, "9999999.0"},
	{1e7, "1.0E7"}, {123456789, "1.23456789E8"}, {1e21, "1.0E21"},
	{1.0e-5, "1.0E-5"}, {2e-3, "0.002"}, {0.3333333333333333, "0.3333333333333333"},
	{math.MaxFloat64, "1.7976931348623157E308"}, {math.SmallestNonzeroFloat64, "4.9E-324"},
	{2.2250738585072014e-308, "2.2250738585072014E-308"}, {1e23, "1.0E23"},
	{0, "0.0"}, {math.Copysign(0, -1), "-0.0"},
	{math.Inf(1), `"Infinity"`}, {math.Inf(-1), `"-Infinity"`}, {math.NaN(), `"NaN"`},
	{math.Float64frombits(0x7ff8000000000000), `"NaN"`}, // Java's Double.NaN
}

func TestAppendJSONFloat64(t *testing.T) {
	for _, c := range javaDoubles {
		got := string(AppendJSONFloat64(nil, c.f))
		assert.Equal(t, c.java, got, "%v", c.f)
		var r JSONReader
		r.Init([]byte(got), 0)
		back := r.Float64()
		require.NoError(t, r.Finish("M", 0), got)
		if math.IsNaN(c.f) {
			// Every NaN reads back as Java's, which is what a Java peer
			// wrote when the value came from the wire.
			assert.Equal(t, uint64(0x7ff8000000000000), math.Float64bits(back), "%x reads back", math.Float64bits(c.f))
			continue
		}
		assert.Equal(t, math.Float64bits(c.f), math.Float64bits(back), "%s reads back", got)
	}
}

func TestAppendJSONString(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{"q\"b\\s/", `"q\"b\\s/"`},
		{"\b\t\n\f\r", `"\b\t\n\f\r"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001F` + "\x7f\""},
		{"é€😀", `"é€😀"`},
		{"a\xffb", "\"a\uFFFDb\""},
		{"<&>\u2028", "\"<&>\u2028\""},
	}
	for _, c := range cases {
		got := AppendJSONString([]byte("x"), c.in)
		assert.Equal(t, "x"+c.want, string(got), "%q", c.in)
		if c.in == "a\xffb" {
			continue // not valid UTF-8: written lossily, as Java reads it
		}
		var r JSONReader
		r.Init(got[1:], 0)
		assert.Equal(t, c.in, r.String(""), "%q reads back", c.in)
		assert.NoError(t, r.Finish("M", 0))
	}
}

func TestJSONBytesAndUUID(t *testing.T) {
	assert.Equal(t, `"8IVxQhUtuH/h3E4="`, string(AppendJSONBytes(nil, []byte{0xf0, 0x85, 0x71, 0x42, 0x15, 0x2d, 0xb8, 0x7f, 0xe1, 0xdc, 0x4e})))
	assert.Equal(t, `""`, string(AppendJSONBytes(nil, nil)))
	u := UUIDFromInts(0x31ed4ed1755fbb88, 0x42002ff775ae5261)
	assert.Equal(t, `"Me1O0XVfu4hCAC_3da5SYQ"`, string(AppendJSONUUID(nil, u)))

	var r JSONReader
	r.Init([]byte(` "Me1O0XVfu4hCAC_3da5SYQ==" `), 0)
	assert.Equal(t, u, r.UUID())
	require.NoError(t, r.Finish("M", 0))

	for _, in := range []string{`"8IVxQhUtuH/h3E4="`, `"8IVxQhUtuH/h3E4"`, `"8IVxQhUtuH\/h3E4="`} {
		r.Init([]byte(in), 0)
		assert.Equal(t, []byte{0xf0, 0x85, 0x71, 0x42, 0x15, 0x2d, 0xb8, 0x7f, 0xe1, 0xdc, 0x4e}, r.Bytes(nil), in)
		require.NoError(t, r.Finish("M", 0), in)
	}
	for _, in := range []string{`"00000000000000000000000"`, `"AAAA"`, `"Me1O0XVfu4hCAC_3da5SY!"`, `"Me1O0XVfu4hCAC_3da5SYQQQ"`} {
		r.Init([]byte(in), 0)
		r.UUID()
		assert.ErrorIs(t, r.Finish("M", 0), ErrJSONType, in)
	}

	r.Init([]byte(`""`), 0)
	b := r.Bytes(nil)
	assert.NotNil(t, b, "empty bytes are not null")
	assert.Empty(t, b)
}

func TestJSONIntegers(t *testing.T) {
	cases := []struct {
		in   string
		read func(r *JSONReader) int64
		want int64
		err  error
	}{
		{"127", func(r *JSONReader) int64 { return int64(r.Int8()) }, 127, nil},
		{"-128", func(r *JSONReader) int64 { return int64(r.Int8()) }, -128, nil},
		{"128", func(r *JSONReader) int64 { return int64(r.Int8()) }, 0, ErrJSONType},
		{"-32768", func(r *JSONReader) int64 { return int64(r.Int16()) }, -32768, nil},
		{"32768", func(r *JSONReader) int64 { return int64(r.Int16()) }, 0, ErrJSONType},
		{"65535", func(r *JSONReader) int64 { return int64(r.Uint16()) }, 65535, nil},
		{"-1", func(r *JSONReader) int64 { return int64(r.Uint16()) }, 0, ErrJSONType},
		{"4294967295", func(r *JSONReader) int64 { return int64(r.Uint32()) }, 4294967295, nil},
		{"4294967296", func(r *JSONReader) int64 { return int64(r.Uint32()) }, 0, ErrJSONType},
		{"-2147483648", func(r *JSONReader) int64 { return int64(r.Int32()) }, math.MinInt32, nil},
		{"9223372036854775807", func(r *JSONReader) int64 { return r.Int64() }, math.MaxInt64, nil},
		{"-9223372036854775808", func(r *JSONReader) int64 { return r.Int64() }, math.MinInt64, nil},
		{"9223372036854775808", func(r *JSONReader) int64 { return r.Int64() }, 0, ErrJSONType},
		{"99999999999999999999999", func(r *JSONReader) int64 { return r.Int64() }, 0, ErrJSONType},
		{"1.0", func(r *JSONReader) int64 { return r.Int64() }, 0, ErrJSONType},
		{"1e3", func(r *JSONReader) int64 { return r.Int64() }, 0, ErrJSONType},
		{`"1"`, func(r *JSONReader) int64 { return r.Int64() }, 0, ErrJSONType},
		{"01", func(r *JSONReader) int64 { return r.Int64() }, 0, ErrJSONSyntax},
		{"-", func(r *JSONReader) int64 { return r.Int64() }, 0, ErrJSONSyntax},
		{"null", func(r *JSONReader) int64 { return r.Int64() }, 0, ErrNull},
		{"true", func(r *JSONReader) int64 { return r.Int64() }, 0, ErrJSONType},
		{"1 2", func(r *JSONReader) int64 { return r.Int64() }, 1, ErrJSONSyntax},
	}
	for _, c := range cases {
		var r JSONReader
		r.Init([]byte(c.in), 3)
		got := c.read(&r)
		err := r.Finish("M", 3)
		if c.err == nil {
			require.NoError(t, err, c.in)
			assert.Equal(t, c.want, got, c.in)
			continue
		}
		assert.ErrorIs(t, err, c.err, c.in)
	}
}

func TestJSONReaderErrorsNameThePathAndOffset(t *testing.T) {
	in := []byte(`{"a": [1, 2, "x"]}`)
	var r JSONReader
	r.Init(in, 7)
	require.True(t, r.ObjectStart())
	require.True(t, r.NextKey())
	assert.Equal(t, "a", string(r.Key()))
	var seen bool
	require.True(t, r.Field(&seen, "a"))
	require.True(t, r.ArrayStart(NullRefused))
	for i := 0; r.NextElem(); i++ {
		r.Index(i)
		r.Int32()
	}
	r.Pop()
	err := r.Finish("M", 7)
	var e *Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, "a[2]", e.Field)
	assert.Equal(t, 13, e.Offset)
	assert.Equal(t, `kafka unmarshal JSON M.a[2] v7 at byte 13: wrong JSON value for the field: expected an integer, found a string`, err.Error())
}

func TestJSONSyntaxErrors(t *testing.T) {
	for _, in := range []string{`{"a" "x"}`, `{"a":"x",}`, `{,"a":"x"}`, `{"a":"x" "b":"y"}`, `{"a`, `{"a":"\q"}`, "{\"a\":\"\x01\"}", `{"a":nul}`} {
		var r JSONReader
		r.Init([]byte(in), 0)
		if r.ObjectStart() {
			for r.NextKey() {
				r.String("")
			}
		}
		assert.ErrorIs(t, r.Finish("M", 0), ErrJSONSyntax, in)
	}
}

func TestJSONStringLimitAndEscapes(t *testing.T) {
	var r JSONReader
	long := make([]byte, 0, MaxStringLen+3)
	long = append(long, '"')
	for range MaxStringLen + 1 {
		long = append(long, 'a')
	}
	long = append(long, '"')
	r.Init(long, 0)
	r.String("")
	assert.ErrorIs(t, r.Finish("M", 0), ErrStringTooLong)

	for _, in := range []string{"\"a\x8a\"", "\"\\n\xff\"", "\"\xe2\x82\""} {
		r.Init([]byte(in), 0)
		r.String("")
		assert.ErrorIs(t, r.Finish("M", 0), ErrJSONSyntax, "%q", in)
	}

	r.Init([]byte(`"\ud83d\ude00 \u00e9 \ud800"`), 0)
	assert.Equal(t, "😀 é \uFFFD", r.String(""))
	assert.NoError(t, r.Finish("M", 0))
}

func TestJSONUnknownTags(t *testing.T) {
	tags := Tags{{Tag: 5, Data: []byte{1, 2}}, {Tag: 300, Data: []byte{}}}
	b := AppendJSONUnknownTags(nil, tags)
	assert.Equal(t, `[{"tag":5,"data":"AQI="},{"tag":300,"data":""}]`, string(b))
	read := func(in []byte, maxKnown int) (Tags, error) {
		var r JSONReader
		var seen bool
		r.Init(in, 0)
		r.Field(&seen, UnknownTagsKey)
		got := r.UnknownTags(nil, maxKnown)
		r.Pop()
		return got, r.Finish("M", 0)
	}
	got, err := read(b, 2)
	require.NoError(t, err)
	assert.Equal(t, tags, got)

	_, err = read(b, 5)
	assert.ErrorIs(t, err, ErrTagOrder)
	assert.Contains(t, err.Error(), "M._unknownTaggedFields[0] v0 at byte 1")

	_, err = read([]byte(`[{"tag":7},{"tag":6}]`), -1)
	assert.ErrorIs(t, err, ErrMissingField)
	assert.Contains(t, err.Error(), "M._unknownTaggedFields[0].data v0")

	_, err = read([]byte(`[{"tag":7,"data":""},{"tag":6,"data":""}]`), -1)
	assert.ErrorIs(t, err, ErrTagOrder)
	assert.Contains(t, err.Error(), "M._unknownTaggedFields[1] v0 at byte 21")
}

func TestJSONWritersAllocateNothing(t *testing.T) {
	buf := make([]byte, 0, 256)
	u := UUIDFromInts(1, 2)
	allocs := testing.AllocsPerRun(100, func() {
		b := AppendJSONString(buf[:0], "topic-\n1")
		b = AppendJSONFloat64(b, 720.324)
		b = AppendJSONFloat64(b, math.SmallestNonzeroFloat64)
		b = AppendJSONInt(b, -5)
		b = AppendJSONUUID(b, u)
		_ = AppendJSONBytes(b, []byte("records"))
	})
	assert.Zero(t, allocs)
}

func TestJSONReaderReusesCapacity(t *testing.T) {
	in := []byte(`["topic","c2VjcmV0",12,"Me1O0XVfu4hCAC_3da5SYQ",1.5]`)
	var r JSONReader
	old := "topic"
	data := make([]byte, 0, 16)
	allocs := testing.AllocsPerRun(100, func() {
		r.Init(in, 0)
		r.ArrayStart(NullRefused)
		r.NextElem()
		_ = r.String(old)
		r.NextElem()
		data = r.Bytes(data)
		r.NextElem()
		_ = r.Int32()
		r.NextElem()
		_ = r.UUID()
		r.NextElem()
		_ = r.Float64()
		r.NextElem()
		if err := r.Finish("M", 0); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs)
	assert.Equal(t, "secret", string(data))
}

func FuzzJSONFloat64(f *testing.F) {
	for _, c := range javaDoubles {
		f.Add(math.Float64bits(c.f))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		s := AppendJSONFloat64(nil, x)
		var r JSONReader
		r.Init(s, 0)
		back := r.Float64()
		require.NoError(t, r.Finish("M", 0), string(s))
		if math.IsNaN(x) {
			require.Equal(t, uint64(0x7ff8000000000000), math.Float64bits(back), "%x", bits)
		} else {
			require.Equal(t, bits, math.Float64bits(back), "%s", s)
			want, err := strconv.ParseFloat(string(s), 64)
			if err == nil {
				require.Equal(t, x, want)
			}
		}
	})
}
