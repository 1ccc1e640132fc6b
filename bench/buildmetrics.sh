#!/usr/bin/env bash
# Build metrics for docs/benchmarks.md: corpus generation time, compile time
# of the generated corpus with a cold cache, and generated code size next to
# kmsg's. Run from bench/ (make bench does).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")"
root=$(cd .. && pwd)
GO=${GO:-go}
export KAFKA_SPEC_DIR=${KAFKA_SPEC_DIR:-$(cd "$root/.." && pwd)/shared/kafka-spec}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

secs() { # secs CMD...: wall seconds of CMD
	local t0 t1
	t0=${EPOCHREALTIME/./}
	"$@" >/dev/null || return
	t1=${EPOCHREALTIME/./}
	awk -v us=$((t1 - t0)) 'BEGIN { printf "%.2f", us / 1e6 }'
}

echo "== corpus generation (gencorpus binary, best of 3)"
(cd "$root" && $GO build -o "$tmp/gencorpus" ./internal/cmd/gencorpus)
best=
for _ in 1 2 3; do
	s=$(cd "$root" && secs "$tmp/gencorpus")
	if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; fi
done
printf "gencorpus: %.2f s (%s)\n" "$best" "$(cd "$root" && "$tmp/gencorpus" | sed "s/ in .*//")"

echo "== compile, cold cache (std and the runtime package prebuilt in that cache; best of 3)"
cold() { # cold DIR PREBUILT PKG: best of 3 cold builds of PKG in DIR
	local best= s i
	for i in 1 2 3; do
		export GOCACHE="$tmp/cache-$i-$RANDOM"
		(cd "$1" && $GO build "$2")
		s=$(cd "$1" && secs $GO build "$3")
		if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; fi
		rm -rf "$GOCACHE"
		unset GOCACHE
	done
	echo "$best"
}
printf "go build ./conformance/gen/... : %.1f s\n" "$(cold "$root" ./runtime/ ./conformance/gen/...)"
printf "go build ./conformance/gen/clients : %.1f s\n" "$(cold "$root" ./runtime/ ./conformance/gen/clients)"
printf "go build kmsg : %.1f s\n" "$(cold . github.com/twmb/franz-go/pkg/kmsg/internal/kbin github.com/twmb/franz-go/pkg/kmsg)"

echo "== generated code size"
kmsg=$($GO list -f '{{.Dir}}' github.com/twmb/franz-go/pkg/kmsg)
count() { # count FILES...: files lines bytes
	printf "%d files, %d lines, %d bytes" "$#" "$(cat "$@" | wc -l)" "$(cat "$@" | wc -c)"
}
echo "conformance/gen/clients: $(count "$root"/conformance/gen/clients/*.go)"
echo "conformance/gen (all):   $(count "$root"/conformance/gen/*/*.go)"
echo "kmsg generated.go:       $(count "$kmsg/generated.go")"
echo "kmsg (package, no tests): $(count $(ls "$kmsg"/*.go | grep -v _test.go))"
exp() { # export data + object size of a compiled package
	local f
	f=$(cd "$1" && $GO list -export -f '{{.Export}}' "$2")
	printf "%d bytes" "$(stat -c %s "$f")"
}
echo "compiled archive, clients: $(exp "$root" ./conformance/gen/clients)"
echo "compiled archive, kmsg:    $(exp . github.com/twmb/franz-go/pkg/kmsg)"
