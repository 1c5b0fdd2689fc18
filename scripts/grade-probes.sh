#!/bin/sh
# grade-probes.sh [OUTDIR] [BINARY]: grade the probe clients of known
# behaviour (grade/testdata/probes: probe.py in python3's standard
# library, probe.mjs in Node 20's fetch) with the built-in pack at
# --parallel 4, every policy, the first request delayed 0 s and 6 s, and
# compare every verdict with the one each policy should get
# (grade/testdata/probes/expect.py). Prints the host's load before and
# after, the matrix of right / inconclusive / wrong verdicts, and every
# wrong one; exits 1 when any is wrong. Run from the repository's root.
# PYTHON names the interpreter (default python3).
# LANGS, POLICIES and DELAYS narrow the matrix; JOBS (default 2) grades
# that many clients at once. It takes some 15 minutes at JOBS=2.
set -u
out=${1:-$(mktemp -d)}
bin=${2:-faultbench}
langs=${LANGS:-"python node"}
policies=${POLICIES:-"careful blind never swallow spinner ignorer exact hiccup"}
delays=${DELAYS:-"0 6"}
jobs=${JOBS:-2}
probes=$(pwd)/grade/testdata/probes
mkdir -p "$out"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
i=0
for lang in $langs; do
	case $lang in
	python) cmd="${PYTHON:-python3} $probes/probe.py" ;;
	node) cmd="node $probes/probe.mjs" ;;
	*) echo "grade-probes: unknown language $lang" >&2; exit 2 ;;
	esac
	for policy in $policies; do
		for delay in $delays; do
			# shellcheck disable=SC2086 # cmd is words
			"$bin" grade --card-only --format json --parallel 4 --out "$out/$lang-$policy-$delay.json" \
				-- $cmd "$policy" "$delay" >"$out/$lang-$policy-$delay.log" 2>&1 &
			i=$((i + 1))
			if [ $((i % jobs)) -eq 0 ]; then
				wait
				echo "graded $i, load $(cut -d' ' -f1-3 /proc/loadavg)"
			fi
		done
	done
done
wait
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
python3 "$probes/expect.py" "$out"
