package schema

import "github.com/tidwall/gjson"

// The loader reads a spec file's values through gjson, on the text that
// the syntax scan (json_syntax.go) checked and blanked. Blanking keeps
// every offset, so a Result's Index is a position in the file as written.

// attr is one attribute of an object.
type attr struct {
	key   string
	pos   Pos // the key's opening quote
	value gjson.Result
}

// objectAttrs returns an object's attributes with Jackson's reading of
// duplicate keys: the last one wins, listed where the key first appeared.
func objectAttrs(obj gjson.Result) []attr {
	var out []attr
	obj.ForEach(func(key, value gjson.Result) bool {
		a := attr{key: key.Str, pos: Pos(key.Index), value: value}
		if prev := lookup(out, a.key); prev != nil {
			*prev = a
		} else {
			out = append(out, a)
		}
		return true
	})
	return out
}

// lookup returns attribute key, or nil.
func lookup(as []attr, key string) *attr {
	for i := range as {
		if as[i].key == key {
			return &as[i]
		}
	}
	return nil
}

// arrayItems returns an array's elements.
func arrayItems(arr gjson.Result) []gjson.Result {
	var out []gjson.Result
	arr.ForEach(func(_, item gjson.Result) bool {
		out = append(out, item)
		return true
	})
	return out
}

// posOf is where a value starts.
func posOf(v gjson.Result) Pos { return Pos(v.Index) }

// scalarText is a scalar's text: a string's decoded contents, or the raw
// text of a number or literal (Jackson coerces those to text that way).
func scalarText(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	return v.Raw
}

// describe names a value's kind for diagnostics ("a string").
func describe(v gjson.Result) string {
	switch v.Type {
	case gjson.Null:
		return "null"
	case gjson.False, gjson.True:
		return "a boolean"
	case gjson.Number:
		return "a number"
	case gjson.String:
		return "a string"
	}
	if v.IsArray() {
		return "an array"
	}
	return "an object"
}
