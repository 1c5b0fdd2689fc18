#!/bin/sh
# interrupt-check.sh [N] [BINARY]: Ctrl-C `faultbench run` 2 s into the
# default suite N times (default 20) and check each time that it exits 130
# and leaves a JSON report marked incomplete. timeout's --preserve-status
# hands back faultbench's own exit code, not timeout's 124.
set -u
n=${1:-20}
bin=${2:-faultbench}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
i=1
while [ "$i" -le "$n" ]; do
	rm -f "$dir/r.json"
	timeout -s INT --preserve-status 2 "$bin" run scenarios/ --format json --out "$dir/r.json" >/dev/null 2>"$dir/err"
	code=$?
	if [ "$code" -eq 130 ] && grep -q '"complete": false' "$dir/r.json" 2>/dev/null; then
		echo "$i: exit 130, $(grep -o '"finished": [0-9]*' "$dir/r.json") of $(grep -o '"runs": [0-9]*' "$dir/r.json" | head -1), marked incomplete"
	else
		echo "$i: FAIL: exit $code; $(tail -c 300 "$dir/err")"
		fails=$((fails + 1))
	fi
	i=$((i + 1))
done
echo "$((n - fails)) of $n interrupts exited 130 with a report marked incomplete"
[ "$fails" -eq 0 ]
