#!/bin/sh
# interrupt-check.sh [N] [BINARY]: stop every command N times (default 20)
# with SIGINT or SIGTERM at a random moment — during start-up or during the
# work — and check each time that it exits 130 or 143 within a second of
# the signal and leaves no report that looks complete at --out: none, or
# one marked incomplete in its format (JSON and baseline "complete": false,
# the table's and Markdown's banner, CSV's comment row, JUnit's error case,
# HTML's banner). Every --out starts as an old complete report, which must
# not survive. Run from the repository's root; prints one line a try and a
# tally per command, and exits 1 when any try failed. CMDS="run merge"
# limits it to those commands. A try whose command ended before the
# signal is not counted, and made again.
set -u
n=${1:-20}
bin=${2:-faultbench}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
formats="table markdown json csv junit html baseline"

# A merge input that takes seconds to read (some 45 MB, under the 64 MiB
# merge reads): the default suite's report for two strategies,
# its results repeated under new scenario names.
"$bin" run scenarios/ --format json --strategies blind,classify --out "$dir/suite.json" >/dev/null 2>&1
python3 - "$dir/suite.json" "$dir/big.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
res = doc["results"]
out = []
for i in range(100):
    for r in res:
        r = dict(r); r["scenario"] = "%s-%d" % (r["scenario"], i); out.append(r)
json.dump({"seed": doc["seed"], "results": out}, open(sys.argv[2], "w"), indent=2)
PY

# rand LO HI: a random number of seconds between LO and HI.
rand() { awk -v lo="$1" -v hi="$2" -v s="$(od -An -N4 -tu4 /dev/urandom)" 'BEGIN { srand(s); printf "%.2f", lo + rand() * (hi - lo) }'; }
now() { date +%s%N; }

# marked FORMAT FILE: the report at FILE says it is incomplete.
marked() {
	case $1 in
	json | baseline) grep -q '"complete": false' "$2" ;;
	table) head -c 40 "$2" | grep -q '^INCOMPLETE REPORT' ;;
	markdown) head -c 40 "$2" | grep -q '^> \*\*INCOMPLETE REPORT' ;;
	csv) head -c 40 "$2" | grep -q '^# INCOMPLETE REPORT' ;;
	junit) grep -q 'type="incomplete"' "$2" ;;
	html) grep -q 'class="incomplete"' "$2" ;;
	*) return 1 ;;
	esac
}

# try NAME FORMAT LO HI ARGS...: start faultbench ARGS (whose --out, if
# any, is $dir/out), signal it after LO..HI s, and judge.
try() {
	name=$1 format=$2 lo=$3 hi=$4
	shift 4
	printf '{"seed": 1, "results": []}\n' >"$dir/out" # an earlier run's, complete
	# A background command of a shell without job control starts with
	# SIGINT ignored, which a Ctrl-C at a terminal never meets: env puts
	# it back to the default (GNU coreutils 8.31 or later).
	env --default-signal=INT "$bin" "$@" >/dev/null 2>"$dir/err" &
	pid=$!
	sleep "$(rand "$lo" "$hi")"
	if [ "$(awk 'BEGIN { srand(); print (rand() < 0.5) }')" = 1 ]; then sig=INT want=130; else sig=TERM want=143; fi
	t0=$(now)
	# Ended, or ending, already (a shell may have reaped it while it
	# slept; a process that has called exit shows PF_EXITING, 0x4, in the
	# flags of its stat, and drops signals): not a try. Builtins only
	# from here to the kill, so that nothing forks in between.
	st=
	read -r st <"/proc/$pid/stat" 2>/dev/null
	# shellcheck disable=SC2086 # the fields of stat, split on purpose
	[ -n "$st" ] && set -- $st
	if [ -z "$st" ] || [ "$3" = Z ] || [ $(($9 & 4)) -ne 0 ] || ! kill -s "$sig" "$pid" 2>/dev/null; then
		wait "$pid"
		echo "$name ($format): ended before the signal; tried again"
		return 1
	fi
	wait "$pid"
	code=$?
	ms=$((($(now) - t0) / 1000000))
	left="no report"
	ok=1
	if [ "$format" = - ]; then
		left="no --out"
	elif [ -s "$dir/out" ]; then
		if marked "$format" "$dir/out"; then left="a report marked incomplete"; else left="A REPORT THAT LOOKS COMPLETE"; ok=0; fi
	fi
	[ "$code" -eq "$want" ] || ok=0
	[ "$ms" -le 1000 ] || ok=0
	if [ "$ok" = 1 ]; then
		echo "$name ($format): SIG$sig -> exit $code in ${ms} ms, $left"
	else
		echo "$name ($format): FAIL: SIG$sig -> exit $code (want $want) in ${ms} ms, $left; $(tail -c 200 "$dir/err")"
		fails=$((fails + 1))
		cmdfails=$((cmdfails + 1))
	fi
	return 0
}

pick() { echo "$formats" | awk -v i="$1" '{ print $((i % NF) + 1) }'; }

for cmd in ${CMDS:-run merge validate strategies init serve grade}; do
	cmdfails=0
	i=1
	while [ "$i" -le "$n" ]; do
		f=$(pick "$i")
		rm -rf "$dir/init" "$dir/out"
		# a try whose command finished before the signal is not counted
		case $cmd in
		run) try run "$f" 0.05 3 run scenarios/ --format "$f" --out "$dir/out" || continue ;;
		merge) try merge "$f" 0.05 2 merge --format "$f" --out "$dir/out" "$dir/big.json" || continue ;;
		# these three finish in some 0.2 s, most of it start-up
		validate) try validate - 0.01 0.12 validate scenarios/ || continue ;;
		strategies) try strategies - 0.01 0.12 strategies || continue ;;
		init) try init - 0.01 0.12 init "$dir/init" || continue ;;
		serve) try serve - 0.05 2 serve --addr 127.0.0.1:0 scenarios/ || continue ;;
		grade)
			case $f in baseline | csv) f=json ;; esac
			try grade "$f" 0.05 3 grade --format "$f" --out "$dir/out" --timeout 10s -- sh -c 'sleep 5' || continue
			;;
		esac
		i=$((i + 1))
	done
	echo "== $cmd: $((n - cmdfails)) of $n interrupts exited 130/143 within a second with no report that looks complete"
done
echo "$fails failed in all"
[ "$fails" -eq 0 ]
