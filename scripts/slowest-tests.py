#!/usr/bin/env python3
"""The slowest packages and tests of a `go test -json` run, as Markdown.

    go test -race -json -count=1 ./... > /tmp/tests.json
    python3 scripts/slowest-tests.py /tmp/tests.json [N]

Prints two tables: the N (default 20) slowest packages and the N slowest
top-level tests, each with its wall time in seconds as go test measured it
(a test's time includes the waits of its parallel siblings; a package's,
its test binary's whole run). docs/development.md shows one.
"""
import json
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: slowest-tests.py FILE.json [N]")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    packages, tests = [], []
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue  # go test's own lines (a build failure) are not events
            if e.get("Action") not in ("pass", "fail", "skip") or "Elapsed" not in e:
                continue
            pkg = e.get("Package", "").split("/faultbench/faultbench/")[-1]
            test = e.get("Test")
            if not test:
                packages.append((e["Elapsed"], pkg, e["Action"]))
            elif "/" not in test:
                tests.append((e["Elapsed"], pkg, test, e["Action"]))
    packages.sort(reverse=True)
    tests.sort(reverse=True)
    print("| package | seconds | result |\n| --- | ---: | --- |")
    for s, p, a in packages[:n]:
        print(f"| `{p}` | {s:.0f} | {a} |")
    print("\n| test | package | seconds | result |\n| --- | --- | ---: | --- |")
    for s, p, t, a in tests[:n]:
        print(f"| `{t}` | `{p}` | {s:.0f} | {a} |")


if __name__ == "__main__":
    main()
