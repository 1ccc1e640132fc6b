package schema

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// summary renders a value read through gjson compactly, with positions:
// kind@pos, and the text of scalars, so that a table can pin what the
// loader reads.
func summary(v gjson.Result) string {
	switch {
	case v.IsArray():
		s := "[@" + strconv.Itoa(v.Index)
		for _, it := range arrayItems(v) {
			s += " " + summary(it)
		}
		return s + "]"
	case v.IsObject():
		s := "{@" + strconv.Itoa(v.Index)
		for _, a := range objectAttrs(v) {
			s += " " + a.key + "@" + strconv.Itoa(int(a.pos)) + "=" + summary(a.value)
		}
		return s + "}"
	}
	return scalarText(v) + "@" + strconv.Itoa(v.Index)
}

func TestScanAndRead(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  string
		lines []int
	}{
		{name: "scalars", in: `{"a": 1, "b": -2.5e3, "c": true, "d": null, "e": "x"}`,
			want: `{@0 a@1=1@6 b@9=-2.5e3@14 c@22=true@27 d@33=null@38 e@44=x@49}`, lines: []int{0}},
		{name: "line comments", in: "// licence\n{\n  \"a\": 1 // one\n}\n",
			want: `{@11 a@15=1@20}`, lines: []int{0, 11, 13, 29, 31}},
		{name: "block comment spanning lines", in: "{ /* x\n y\r\n z */ \"a\": 1 }",
			want: `{@0 a@17=1@22}`, lines: []int{0, 7, 11}},
		{name: "comment markers inside strings are text", in: `{"a": "http://x/*y*/", "b": "\"//"} // c`,
			want: `{@0 a@1=http://x/*y*/@6 b@23="//@28}`, lines: []int{0}},
		{name: "comment at end of file", in: "{}//", want: `{@0}`, lines: []int{0}},
		{name: "block comment closing at end", in: "{}/**/", want: `{@0}`, lines: []int{0}},
		{name: "stars inside block comment", in: "/*** a ***/{}", want: `{@11}`, lines: []int{0}},
		{name: "comments touching values", in: "[1/**/,true//x\n,\"s\"/*\n*/]",
			want: `[@0 1@1 true@7 s@16]`, lines: []int{0, 15, 22}},
		{name: "escapes", in: `["\t\n\/\\\"", "\u00e9\ud83d\ude00", "\ud800x", "\udc00\ud800\u0041"]`,
			want: "[@0 \t\n/\\\"@1 é😀@15 \uFFFDx@37 \uFFFD\uFFFDA@48]", lines: []int{0}},
		{name: "duplicate keys: the last value, where the key first stood", in: `{"a": 1, "b": 2, "a": 3}`,
			want: `{@0 a@17=3@22 b@9=2@14}`, lines: []int{0}},
		{name: "nested", in: "{\"f\": [{\"g\": []}, []]}",
			want: `{@0 f@1=[@6 {@7 g@8=[@13]} [@18]]}`, lines: []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := scanJSON([]byte(tt.in), false)
			require.Nil(t, err)
			assert.Equal(t, tt.want, summary(gjson.Parse(doc.text)))
			assert.Equal(t, tt.lines, doc.lines)
			assert.Len(t, doc.text, strings.LastIndexAny(tt.in, "}]")+1, "the text read ends with the top-level value")
		})
	}
}

// TestScanBlanksComments: comments become spaces, line breaks stay, and
// nothing else moves, so offsets in the text read are offsets in the file.
func TestScanBlanksComments(t *testing.T) {
	doc, err := scanJSON([]byte("// a\r\n{/* b\n*/\"c//\": 1} /* d */"), false)
	require.Nil(t, err)
	assert.Equal(t, "     \n{    \n  \"c//\": 1}", doc.text)
}

func TestScanErrors(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		offset int
		msg    string
	}{
		{"empty", "  \n", 0, "invalid JSON: empty file: expected a JSON object"},
		{"only comments", "// a\n/* b */", 0, "invalid JSON: empty file: expected a JSON object"},
		{"unterminated comment", "{\n  \"a\": 1 /* never\n closed", 11, "unterminated /* comment"},
		{"missing comma", `{"a": 1 "b": 2}`, 8, `invalid JSON: unexpected character '"': expected ',' or '}'`},
		{"bare word", `{"a": TBD}`, 6, `invalid JSON: unexpected token "TBD": expected a value`},
		{"trailing tokens", "{}\n{}", 3, `invalid JSON: unexpected character '{' after the end of the JSON document`},
		{"trailing comment is fine but text is not", "{} // x\n]", 8, `invalid JSON: unexpected character ']' after the end of the JSON document`},
		{"unterminated string", `{"a": "x`, 6, "invalid JSON: unterminated string"},
		{"backslash at the end", `{"a": "x\`, 6, "invalid JSON: unterminated string"},
		{"bad escape", `{"a": "\q"}`, 7, `invalid JSON: invalid escape \q in string`},
		{"bad unicode escape", `{"a": "\u00zz"}`, 7, `invalid JSON: invalid \u escape in string`},
		{"control character", "{\"a\": \"x\ny\"}", 8, "invalid JSON: unescaped control character 0x0a in string"},
		{"leading zero", `{"a": 01}`, 6, "invalid JSON: invalid number: leading zeros are not allowed"},
		{"no fraction digits", `{"a": 1.}`, 8, "invalid JSON: invalid number: expected digits after '.'"},
		{"no exponent digits", `{"a": 1e}`, 8, "invalid JSON: invalid number: expected exponent digits"},
		{"minus alone", `{"a": -}`, 7, "invalid JSON: invalid number"},
		{"number then letters", `{"a": 12ab}`, 6, `invalid JSON: unexpected token "12ab": expected a value`},
		{"key not quoted", `{a: 1}`, 1, "invalid JSON: unexpected character 'a': expected a quoted attribute name"},
		{"no colon", `{"a" 1}`, 5, "invalid JSON: unexpected character '1': expected ':'"},
		{"array not closed", `[1, 2`, 5, "invalid JSON: unexpected end of file: expected ',' or ']'"},
		{"binary", "\x00{", 0, "invalid JSON: unexpected byte 0x00: expected a value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scanJSON([]byte(tt.in), false)
			require.NotNil(t, err)
			assert.Equal(t, tt.msg, err.msg)
			assert.Equal(t, tt.offset, err.offset)
		})
	}
}

func TestScanDeepNesting(t *testing.T) {
	deep := make([]byte, 0, 2*(maxNesting+2))
	for range maxNesting + 2 {
		deep = append(deep, '[')
	}
	_, err := scanJSON(deep, false)
	require.NotNil(t, err)
	assert.Equal(t, "invalid JSON: JSON nested more than 1000 levels deep", err.msg)
}

// TestScanTrailingText: with the 2.x rules, whatever follows the
// top-level value is left unread, even text that is not JSON.
func TestScanTrailingText(t *testing.T) {
	for _, tail := range []string{"\n  ]\n}\n", "{}", " garbage \"", "/* open", ", \"b\": 2}"} {
		doc, err := scanJSON([]byte(`{"a": 1}`+tail), true)
		require.Nil(t, err, "%q", tail)
		assert.Equal(t, `{@0 a@1=1@6}`, summary(gjson.Parse(doc.text)))
		_, err = scanJSON([]byte(`{"a": 1}`+tail), false)
		assert.NotNil(t, err, "the current rules refuse %q", tail)
	}
}
