package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseVersions(t *testing.T) {
	tests := []struct {
		in      string
		want    Versions
		wantErr string
	}{
		{in: "none", want: None},
		{in: " none ", want: None},
		{in: "0+", want: All},
		{in: "3+", want: Versions{3, NoMax}},
		{in: " 3+\t", want: Versions{3, NoMax}},
		{in: "0", want: Versions{0, 0}},
		{in: "7", want: Versions{7, 7}},
		{in: "1-11", want: Versions{1, 11}},
		{in: "0-0", want: Versions{0, 0}},
		{in: "32767", want: Versions{32767, 32767}},
		{in: "+5", want: Versions{5, 5}},  // Short.parseShort accepts a plus sign
		{in: "5-3", want: Versions{5, 3}}, // N-M with N > M is an empty range, as in Kafka
		{in: "", wantErr: "empty version range"},
		{in: "   ", wantErr: "empty version range"},
		{in: "abc", wantErr: `"abc" is not a 16-bit version number`},
		{in: "1-x", wantErr: `"x" is not a 16-bit version number`},
		{in: "x-1", wantErr: `"x" is not a 16-bit version number`},
		{in: "-1", wantErr: "bounds must not be negative"},
		{in: "-1+", wantErr: "bounds must not be negative"},
		{in: "32768", wantErr: "not a 16-bit version number"},
		{in: "1-32768", wantErr: "not a 16-bit version number"},
		{in: "+", wantErr: `"" is not a 16-bit version number`},
		{in: "3++", wantErr: `"3+" is not a 16-bit version number`},
		{in: "1-", wantErr: `"" is not a 16-bit version number`},
		{in: "1 - 2", wantErr: "not a 16-bit version number"},
		{in: "None", wantErr: "not a 16-bit version number"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseVersions(tt.in)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestVersionsPredicates(t *testing.T) {
	tests := []struct {
		v                     Versions
		empty, open           bool
		contains, notContains []int16
	}{
		{v: None, empty: true, notContains: []int16{0, 1, NoMax}},
		{v: Versions{5, 3}, empty: true, notContains: []int16{3, 4, 5}},
		{v: All, open: true, contains: []int16{0, 1, NoMax}},
		{v: Versions{2, 4}, contains: []int16{2, 3, 4}, notContains: []int16{0, 1, 5, NoMax}},
		{v: Versions{9, NoMax}, open: true, contains: []int16{9, 100, NoMax}, notContains: []int16{0, 8}},
	}
	for _, tt := range tests {
		t.Run(tt.v.String(), func(t *testing.T) {
			assert.Equal(t, tt.empty, tt.v.Empty())
			assert.Equal(t, tt.open, tt.v.Open())
			for _, c := range tt.contains {
				assert.True(t, tt.v.Contains(c), "contains %d", c)
			}
			for _, c := range tt.notContains {
				assert.False(t, tt.v.Contains(c), "does not contain %d", c)
			}
		})
	}
}

func TestVersionsIntersect(t *testing.T) {
	tests := []struct {
		a, b, want Versions
	}{
		{All, All, All},
		{All, None, None},
		{None, All, None},
		{None, None, None},
		{Versions{0, 5}, Versions{3, NoMax}, Versions{3, 5}},
		{Versions{3, NoMax}, Versions{0, 5}, Versions{3, 5}},
		{Versions{0, 2}, Versions{3, NoMax}, None},
		{Versions{0, 3}, Versions{3, 3}, Versions{3, 3}},
		{Versions{12, NoMax}, Versions{0, 17}, Versions{12, 17}},
		{Versions{5, 3}, All, None}, // an empty range stays empty
		{Versions{1, 1}, Versions{2, 2}, None},
	}
	for _, tt := range tests {
		t.Run(tt.a.String()+"&"+tt.b.String(), func(t *testing.T) {
			got := tt.a.Intersect(tt.b)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, got, tt.b.Intersect(tt.a), "symmetric")
			if got.Empty() {
				assert.Equal(t, None, got, "empty results are normalised to None")
			}
		})
	}
}

func TestVersionsCovers(t *testing.T) {
	tests := []struct {
		a, b Versions
		want bool
	}{
		{All, All, true},
		{All, None, true},
		{None, None, true},
		{None, All, false},
		{None, Versions{0, 0}, false},
		{Versions{0, NoMax}, Versions{3, 5}, true},
		{Versions{3, NoMax}, Versions{0, NoMax}, false},
		{Versions{1, NoMax}, Versions{0, NoMax}, false},
		{Versions{0, 5}, Versions{0, NoMax}, false},
		{Versions{0, 5}, Versions{5, 5}, true},
		{Versions{2, 7}, Versions{5, 3}, true}, // any range covers an empty one
		{Versions{5, 3}, Versions{5, 3}, true},
	}
	for _, tt := range tests {
		t.Run(tt.a.String()+">="+tt.b.String(), func(t *testing.T) {
			assert.Equal(t, tt.want, tt.a.Covers(tt.b))
		})
	}
}

func TestVersionsHull(t *testing.T) {
	assert.Equal(t, Versions{0, 5}, Versions{0, 1}.Hull(Versions{4, 5}))
	assert.Equal(t, Versions{4, 5}, None.Hull(Versions{4, 5}))
	assert.Equal(t, Versions{4, 5}, Versions{4, 5}.Hull(None))
	assert.Equal(t, All, Versions{3, NoMax}.Hull(Versions{0, 1}))
	assert.True(t, None.Hull(None).Empty())
}

func TestVersionsString(t *testing.T) {
	tests := []struct {
		v    Versions
		want string
	}{
		{None, "none"},
		{Versions{5, 3}, "none"},
		{All, "0+"},
		{Versions{12, NoMax}, "12+"},
		{Versions{0, 0}, "0"},
		{Versions{7, 7}, "7"},
		{Versions{1, 11}, "1-11"},
		{Versions{NoMax, NoMax}, "32767+"}, // the open-ended marker wins
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.v.String())
		})
	}
}

func TestVersionsStringRoundTrip(t *testing.T) {
	for _, s := range []string{"none", "0+", "3+", "0", "9", "0-3", "2-17"} {
		v, err := ParseVersions(s)
		require.NoError(t, err, s)
		assert.Equal(t, s, v.String())
	}
}
