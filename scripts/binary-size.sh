#!/usr/bin/env bash
# Holds the faultbench binary to its recorded size: fails when a build of
# ./cmd/faultbench is more than 10 % larger than scripts/binary-size.txt
# says, so that a dependency's cost is accepted on purpose, in the change
# that brings it (docs/performance.md, "The build").
#
#   bash scripts/binary-size.sh           # check
#   bash scripts/binary-size.sh --record  # write the new size into the record
set -euo pipefail
cd "$(dirname "$0")/.."
record=scripts/binary-size.txt
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/faultbench" ./cmd/faultbench
size=$(stat -c %s "$out/faultbench")
goversion=$(go env GOVERSION)
if [ "${1:-}" = "--record" ]; then
  printf '%s %s\n' "$size" "$goversion" >"$record"
  echo "recorded $size bytes ($goversion) in $record"
  exit 0
fi
read -r recorded recgo <"$record"
limit=$((recorded + recorded / 10))
echo "faultbench binary: $size bytes ($goversion); recorded $recorded ($recgo); limit $limit"
if [ "$goversion" != "$recgo" ]; then
  echo "note: recorded with $recgo, built with $goversion"
fi
if [ "$size" -gt "$limit" ]; then
  echo "the binary grew more than 10 % over its record: if the growth is wanted, say what it costs in docs/performance.md and run bash scripts/binary-size.sh --record" >&2
  exit 1
fi
