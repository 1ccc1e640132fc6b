//go:build corpus

package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// transcodeSamples is how many random messages each ordered pair of
// versions of a spec gets.
const transcodeSamples = 20

// sentinelOf is the runtime sentinel of a reason Java refuses a write.
var sentinelOf = map[wiregen.Reason]error{
	wiregen.ReasonNonDefault:    runtime.ErrNonDefault,
	wiregen.ReasonNull:          runtime.ErrNull,
	wiregen.ReasonTaggedFields:  runtime.ErrTaggedFields,
	wiregen.ReasonStringTooLong: runtime.ErrStringTooLong,
}

// TestCorpusTranscode decodes a random message at one version and encodes it
// at every other. wiregen models Java: the same value tree written at the
// target version gives the bytes Java writes, or Java's refusal (a
// non-ignorable field absent from the target version holding a non-default
// value, null where the target version is not nullable, unknown tags at a
// non-flexible version). Ours must give the same bytes, or refuse with the
// matching sentinel naming the same field.
func TestCorpusTranscode(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	require.Len(t, specs, 258)
	checked, refused, nested, mismatches := 0, 0, 0, 0
	byReason := map[wiregen.Reason]int{}
	mismatch := func(format string, args ...any) {
		mismatches++
		if mismatches <= 40 {
			t.Errorf(format, args...)
		}
	}
	for _, spec := range specs {
		pkg := pkgOf[spec]
		versions := wiregen.Versions(spec)
		for _, v1 := range versions {
			rng := rand.New(rand.NewPCG(uint64(v1)+1000, hash(spec.Name)))
			for _, v2 := range versions {
				if v1 == v2 {
					continue
				}
				for i := range transcodeSamples {
					opts := wiregen.Options{UnknownTags: i%2 == 1, MaxArray: 1 + i%3}
					tree := wiregen.Generate(spec, v1, rng, opts)
					src, err := tree.Encode(v1)
					require.NoError(t, err, "%s v%d: a tree does not encode at its own version", spec.Name, v1)
					msg := pkg.newByName(spec.Name)
					n, err := msg.Decode(src, v1)
					require.NoError(t, err, "%s v%d: decode %x", spec.Name, v1, src)
					require.Equal(t, len(src), n, "%s v%d: decode consumed %d of %d bytes", spec.Name, v1, n, len(src))

					where := fmt.Sprintf("%s v%d -> v%d (sample %d, source %x)", spec.Name, v1, v2, i, src)
					ours, oerr := msg.AppendTo(nil, v2)
					want, werr := tree.Encode(v2)
					checked++
					if werr == nil {
						switch {
						case oerr != nil:
							mismatch("%s: Java writes %x, ours fails: %v", where, want, oerr)
						case !bytes.Equal(ours, want):
							mismatch("%s:\n ours %x\n java %x", where, ours, want)
						case msg.Size(v2) != len(want):
							mismatch("%s: Size %d, encoding has %d bytes", where, msg.Size(v2), len(want))
						}
						continue
					}
					var we *wiregen.WriteError
					require.True(t, errors.As(werr, &we))
					refused++
					byReason[we.Reason]++
					if strings.ContainsAny(we.FieldPath, ".[") {
						nested++
					}
					if oerr == nil {
						mismatch("%s: Java refuses (%v), ours writes %x", where, werr, ours)
						continue
					}
					var re *runtime.Error
					switch {
					case !errors.As(oerr, &re):
						mismatch("%s: error %T is not a *runtime.Error: %v", where, oerr, oerr)
					case !errors.Is(oerr, sentinelOf[we.Reason]):
						mismatch("%s: Java refuses (%v), ours fails with another sentinel: %v", where, werr, oerr)
					case re.Field != we.FieldPath:
						mismatch("%s: Java refuses at field %q (%v), ours names %q: %v", where, we.FieldPath, werr, re.Field, oerr)
					case re.Message != spec.Name || re.Version != v2 || re.Op != "encode" || re.Offset != -1:
						mismatch("%s: error %+v names the wrong message, version, op or offset", where, re)
					}
				}
			}
		}
	}
	t.Logf("transcode: %d checked, %d refused (%v; %d inside nested structs), %d mismatches",
		checked, refused, byReason, nested, mismatches)
	fmt.Printf("transcode: checked=%d refused=%d mismatches=%d\n", checked, refused, mismatches)
	require.Zero(t, mismatches)
	require.Positive(t, refused, "no refusals")
	require.Positive(t, checked-refused, "no successful transcodes")
	require.Positive(t, nested, "no refusals inside nested structs")
	for _, r := range []wiregen.Reason{wiregen.ReasonNonDefault, wiregen.ReasonNull, wiregen.ReasonTaggedFields} {
		require.Positive(t, byReason[r], "no refusals for %s", r)
	}
}
