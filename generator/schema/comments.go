package schema

import "errors"

// stripComments blanks out // and /* */ comments, which Jackson accepts with
// ALLOW_COMMENTS, replacing every comment byte except line breaks with a
// space. Byte offsets and line numbers of the rest of the text are unchanged,
// so positions found in the result are positions in the original file.
// It returns the offset of an unterminated block comment as an error.
func stripComments(src []byte) ([]byte, int, error) {
	out := make([]byte, len(src))
	copy(out, src)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			case '\n':
				inString = false // the syntax check reports the broken string
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			start := i
			out[i], out[i+1] = ' ', ' '
			i += 2
			closed := false
			for ; i < len(out); i++ {
				if out[i] == '*' && i+1 < len(out) && out[i+1] == '/' {
					out[i], out[i+1] = ' ', ' '
					i++
					closed = true
					break
				}
				if out[i] != '\n' && out[i] != '\r' {
					out[i] = ' '
				}
			}
			if !closed {
				return nil, start, errors.New("unterminated /* comment")
			}
		}
	}
	return out, 0, nil
}
