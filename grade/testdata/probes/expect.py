#!/usr/bin/env python3
"""Compares the verdicts of graded probe clients with the ones they should get.

    python3 grade/testdata/probes/expect.py DIR

DIR holds `faultbench grade --format json` reports named LANG-POLICY-DELAY.json
(scripts/grade-probes.sh writes them). For every finding it says right,
inconclusive (a timing check that could not tell: never counted wrong) or
wrong, prints a matrix of the counts per client and every wrong verdict,
and exits 1 when any verdict is wrong or a report is missing a check.
"""
import json
import os
import sys

PASS, FAIL, NR, INC = "pass", "fail", "not reached", "inconclusive"

# The timing checks, which may answer inconclusive when the host's noise
# hides what they look for.
TIMING = {"retry-after", "retry-after-ms", "bounded", "backoff", "jitter", "stream-restarts", "hang"}

CHECKS = ["retry-after", "retry-after-ms", "should-retry-false", "permanent", "bounded", "backoff",
          "jitter", "recovers", "stream-restarts", "hang", "overflow", "fallback"]


def table(**over):
    """Every check PASS but those named (a check's name with _ for -)."""
    t = {c: PASS for c in CHECKS}
    t.update({k.replace("_", "-"): v for k, v in over.items()})
    return t


NO_RETRY = table(retry_after=NR, retry_after_ms=NR, backoff=NR, jitter=NR, recovers=FAIL, overflow=FAIL, fallback=FAIL)
NO_WAIT = dict(retry_after=FAIL, retry_after_ms=FAIL, should_retry_false=FAIL, permanent=FAIL, backoff=FAIL,
               jitter=FAIL, overflow=FAIL, fallback=FAIL)

EXPECT = {
    "careful": table(),
    "blind": table(retry_after=FAIL, retry_after_ms=FAIL, should_retry_false=FAIL, permanent=FAIL, backoff=FAIL,
                   jitter=FAIL, overflow=FAIL, fallback=FAIL),
    "never": NO_RETRY,
    "swallow": NO_RETRY,
    "spinner": table(bounded=FAIL, stream_restarts=FAIL, **NO_WAIT),
    "ignorer": table(retry_after_ms=FAIL, should_retry_false=FAIL),
    "exact": table(jitter=FAIL),
    "hiccup": table(**NO_WAIT),
}

# Cells whose right verdict is the host's speed, not the policy: a loop
# with no wait recovers from a 429 that asked for a wait only if its
# attempts outlast the wait (the mock answers an early retry with the same
# 429), 40 or 9 of them on a busy host or not; each verdict is right for
# the journal it made.
EITHER = {(p, "recovers", sc): {PASS, FAIL} for p in ("spinner", "hiccup")
          for sc in ("retry-after", "retry-after-ms", "retry-info-gemini")}

# Words a verdict must carry, beyond its status.
WORDS = {("swallow", "recovers"): "reported success although it failed"}


def judge(policy, f):
    want = EITHER.get((policy, f["check"], f["scenario"]), {EXPECT[policy][f["check"]]})
    words = WORDS.get((policy, f["check"]))
    if f["status"] in want and (words is None or words in f["evidence"]):
        return "right"
    if f["status"] == INC and f["check"] in TIMING and want & {PASS, FAIL}:
        return "inconclusive"
    return "wrong"


def main():
    d = sys.argv[1]
    rows, wrong, bad = [], [], 0
    for name in sorted(os.listdir(d)):
        if not name.endswith(".json"):
            continue
        lang, policy, delay = name[:-5].split("-")
        try:
            findings = json.load(open(os.path.join(d, name)))["grade"]["findings"]
        except (OSError, ValueError, KeyError) as e:
            print(f"{name}: no report ({e})")
            bad += 1
            continue
        n = {"right": 0, "inconclusive": 0, "wrong": 0}
        for f in findings:
            v = judge(policy, f)
            n[v] += 1
            if v == "wrong":
                wrong.append(f"{lang} {policy} {delay} s: {f['check']} on {f['scenario']}: {f['status']}, "
                             f"want {EXPECT[policy][f['check']]}: {f['evidence']}")
        if len(findings) != 31:
            print(f"{name}: {len(findings)} findings, want 31")
            bad += 1
        rows.append((lang, policy, delay, n))
    print("| client | policy | first request delayed | right | inconclusive | wrong |")
    print("| --- | --- | --- | --- | --- | --- |")
    total = {"right": 0, "inconclusive": 0, "wrong": 0}
    for lang, policy, delay, n in rows:
        print(f"| {lang} | {policy} | {delay} s | {n['right']} | {n['inconclusive']} | {n['wrong']} |")
        for k in total:
            total[k] += n[k]
    print(f"| all | | | {total['right']} | {total['inconclusive']} | {total['wrong']} |")
    for w in wrong:
        print("WRONG", w)
    return 1 if wrong or bad else 0


if __name__ == "__main__":
    sys.exit(main())
