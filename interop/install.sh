#!/usr/bin/env bash
# Installs the clients of the interop suite on Debian 12 (CI runs it as root
# on a clean clone): kcat and kafka-python with its codecs from Debian,
# kafkajs with its snappy codec from npm into node/node_modules (git-ignored),
# and the Go clients through the module proxy. Steps whose result is already
# there are skipped, so a second run touches no network.
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages: kcat (librdkafka), kafka-python and the codec modules it
# imports when present (snappy, lz4, zstandard).
missing=()
for pkg in kcat python3-kafka python3-snappy python3-lz4 python3-zstandard; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$pkg")
	fi
done
if ! command -v npm >/dev/null 2>&1; then
	missing+=(nodejs npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "install: apt-get install ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q "${missing[@]}"
fi

# kafkajs exactly as package-lock.json pins it, with pure-JavaScript snappy
# (kafkajs-snappy) and lz4 (lz4js) codecs: the npm lz4 and zstd codecs for
# kafkajs need native builds (node-gyp).
# node_modules/.interop-lock is the lock file of the last install.
if ! cmp -s node/package-lock.json node/node_modules/.interop-lock 2>/dev/null; then
	echo "install: npm ci (kafkajs)"
	(cd node && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.interop-lock)
fi

go mod download
# segmentio/kafka-go v0.4.47 for the bridge runs, in a module of its own
# (the interop module pins a newer kafka-go).
(cd kafkago047 && go mod download)
