package kmsgdiff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"
)

var tagsType = reflect.TypeOf(kmsg.Tags{})

// mutate changes a decoded kmsg message at random: scalars get new values,
// UUIDs and bytes new contents, arrays lose trailing elements or gain a
// defaulted then mutated one, and nil pointers (null nullable strings and
// structs) sometimes become values. It never makes a value null, so kmsg
// only writes what is valid for the version (fields absent at the version
// are not written by kmsg at all). The top-level Version field and unknown
// tags are left alone.
func mutate(v reflect.Value, rng *rand.Rand, top bool) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == tagsType {
			return
		}
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || top && f.Name == "Version" {
				continue
			}
			mutate(v.Field(i), rng, false)
		}
	case reflect.Pointer:
		if v.IsNil() {
			if rng.IntN(4) != 0 {
				return
			}
			n := reflect.New(v.Type().Elem())
			setDefault(n)
			v.Set(n)
		}
		mutate(v.Elem(), rng, false)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			if !v.IsNil() && rng.IntN(2) == 0 {
				v.SetBytes(randBytes(rng))
			}
			return
		}
		if v.Len() > 0 && rng.IntN(8) == 0 {
			v.Set(v.Slice(0, rng.IntN(v.Len())))
		}
		if rng.IntN(4) == 0 {
			e := reflect.New(v.Type().Elem())
			setDefault(e)
			v.Set(reflect.Append(v, e.Elem()))
		}
		for i := 0; i < v.Len(); i++ {
			mutate(v.Index(i), rng, false)
		}
	case reflect.Array:
		if rng.IntN(2) == 0 {
			for i := 0; i < v.Len(); i++ {
				mutate(v.Index(i), rng, false)
			}
		}
	case reflect.Bool:
		if rng.IntN(2) == 0 {
			v.SetBool(rng.IntN(2) == 0)
		}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if rng.IntN(2) == 0 {
			v.SetInt(randInt(rng, v.Type().Bits()))
		}
	case reflect.Uint8:
		// An element of a UUID ([16]byte): any byte.
		v.SetUint(uint64(rng.IntN(256)))
	case reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if rng.IntN(2) == 0 {
			v.SetUint(uint64(randInt(rng, v.Type().Bits())) & (1<<v.Type().Bits() - 1))
		}
	case reflect.Float64:
		if rng.IntN(2) == 0 {
			switch rng.IntN(4) {
			case 0:
				v.SetFloat(0)
			case 1:
				v.SetFloat(math.Float64frombits(rng.Uint64()))
			default:
				v.SetFloat(rng.NormFloat64() * 1000)
			}
		}
	case reflect.String:
		if rng.IntN(2) == 0 {
			v.SetString(randString(rng))
		}
	default:
		panic(fmt.Sprintf("mutate: unexpected kind %s (%s)", v.Kind(), v.Type()))
	}
}

// setDefault calls kmsg's Default method on a new *T, when T has one.
func setDefault(p reflect.Value) {
	if m := p.MethodByName("Default"); m.IsValid() && m.Type().NumIn() == 0 {
		m.Call(nil)
	}
}

func randInt(rng *rand.Rand, bits int) int64 {
	switch rng.IntN(6) {
	case 0:
		return 0
	case 1:
		return -1
	case 2:
		return int64(rng.IntN(100))
	case 3:
		return -1 << (bits - 1) // min
	case 4:
		return 1<<(bits-1) - 1 // max
	default:
		return int64(rng.Uint64()<<(64-bits)) >> (64 - bits)
	}
}

const alphabet = "abcdefghijklmnopqrstuvwxyz-_.0123456789é€"

func randString(rng *rand.Rand) string {
	r := []rune(alphabet)
	var b strings.Builder
	for n := rng.IntN(9); n > 0; n-- {
		b.WriteRune(r[rng.IntN(len(r))])
	}
	return b.String()
}

func randBytes(rng *rand.Rand) []byte {
	b := make([]byte, rng.IntN(9))
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return b
}
