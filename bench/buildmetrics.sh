#!/usr/bin/env bash
# Build metrics for docs/benchmarks.md: corpus generation time, cold compile
# time and archive size of the generated client package next to kmsg's
# (measured side by side, alternating), a pruned package, and the shape of
# the generated functions. Run from bench/ (make bench does).
#
# The client package is generated here without -json into a folder of its
# own, as a user would generate it: gencorpus adds the JSON methods, which
# kmsg does not have.
#
# ./buildmetrics.sh compile runs only the cold compile of the clients package
# against kmsg (KAFKAGEN_FLAGS adds generator flags to the clients package,
# e.g. KAFKAGEN_FLAGS=-visitors to measure with the visitors).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")"
root=$(cd .. && pwd)
GO=${GO:-go}
export KAFKA_SPEC_DIR=${KAFKA_SPEC_DIR:-$(cd "$root/.." && pwd)/shared/kafka-spec}
clients=$KAFKA_SPEC_DIR/clients/src/main/resources/common/message
tmp=$(mktemp -d)
# Generated packages must live in the module to import its runtime; a
# leading dot keeps them out of ./... patterns.
gen=$(mktemp -d "$root/.buildmetrics-XXXXXX")
trap 'rm -rf "$tmp" "$gen"' EXIT

secs() { # secs CMD...: wall seconds of CMD
	local t0 t1
	t0=${EPOCHREALTIME/./}
	"$@" >/dev/null || return
	t1=${EPOCHREALTIME/./}
	awk -v us=$((t1 - t0)) 'BEGIN { printf "%.2f", us / 1e6 }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }
ratio() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { r = a / b; printf "%.2f× (target ≤ %s×) %s", r, t, (r <= t ? "PASS" : "MISS") }'; }

only=${1:-}
(cd "$root" && $GO build -o "$tmp/kafkagen" ./cmd/kafkagen)
if [ "$only" != compile ]; then
	echo "== corpus generation (gencorpus binary, best of 3)"
	(cd "$root" && $GO build -o "$tmp/gencorpus" ./internal/cmd/gencorpus)
	best=
	for _ in 1 2 3; do
		best=$(min "$(cd "$root" && secs "$tmp/gencorpus")" "$best")
	done
	printf "gencorpus: %.2f s (%s)\n" "$best" "$(cd "$root" && "$tmp/gencorpus" | sed "s/ in .*//")"
fi

# shellcheck disable=SC2086 # KAFKAGEN_FLAGS is a list of flags
"$tmp/kafkagen" -in "$clients" -out "$gen/clients" -package clients ${KAFKAGEN_FLAGS:-}
"$tmp/kafkagen" -in "$clients" -out "$gen/pruned" -package pruned -messages Produce,Fetch,Metadata,ApiVersions -min-version 4
rel=${gen#"$root"/}

echo "== compile, cold cache (every dependency prebuilt in that cache; best of 3, alternating)"
cold() { # cold DIR PKG: seconds of one build of PKG in DIR with a cache holding only its dependencies
	local s deps
	export GOCACHE="$tmp/cache-$RANDOM"
	deps=$(cd "$1" && $GO list -deps "$2" | sed '$d') # the package itself comes last
	(cd "$1" && $GO build $deps)
	s=$(cd "$1" && secs $GO build "$2")
	rm -rf "$GOCACHE"
	unset GOCACHE
	echo "$s"
}
ours= theirs= pruned=
for _ in 1 2 3; do
	ours=$(min "$(cold "$root" "./$rel/clients")" "$ours")
	theirs=$(min "$(cold . github.com/twmb/franz-go/pkg/kmsg)" "$theirs")
	pruned=$(min "$(cold "$root" "./$rel/pruned")" "$pruned")
done
printf "go build clients (generated without -json): %.2f s\n" "$ours"
printf "go build kmsg: %.2f s\n" "$theirs"
echo "clients / kmsg: $(ratio "$ours" "$theirs" 1.6)"
printf "go build pruned (Produce, Fetch, Metadata, ApiVersions from v4): %.2f s %s\n" "$pruned" \
	"$(awk -v s="$pruned" 'BEGIN { print (s < 2 ? "(target < 2 s) PASS" : "(target < 2 s) MISS") }')"
[ "$only" != compile ] || exit 0

echo "== generated code size"
kmsg=$($GO list -f '{{.Dir}}' github.com/twmb/franz-go/pkg/kmsg)
count() { # count FILES...: files lines bytes
	printf "%d files, %d lines, %d bytes" "$#" "$(cat "$@" | wc -l)" "$(cat "$@" | wc -c)"
}
echo "clients:                 $(count "$gen"/clients/*.go)"
echo "pruned:                  $(count "$gen"/pruned/*.go)"
echo "kmsg (package, no tests): $(count $(ls "$kmsg"/*.go | grep -v _test.go))"
archive() { # archive DIR PKG: bytes of the compiled package (export data and object code)
	stat -c %s "$(cd "$1" && $GO list -export -f '{{.Export}}' "$2")"
}
a=$(archive "$root" "./$rel/clients")
k=$(archive . github.com/twmb/franz-go/pkg/kmsg)
echo "compiled archive, clients: $a bytes"
echo "compiled archive, kmsg:    $k bytes"
echo "clients / kmsg: $(ratio "$a" "$k" 1.5)"

echo "== shape of the generated functions (clients)"
(cd "$root" && $GO test -count=1 -run '^TestCorpusFunctionShape$' -v ./generator/ | grep -o 'shape: .*')
