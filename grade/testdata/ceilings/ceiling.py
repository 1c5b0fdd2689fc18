"""A probe client with a known Retry-After policy, for the specs of the
ladder, the outage and the warp (grade/warp_test.go). Standard library
only. It asks ANTHROPIC_BASE_URL's Messages API, once per attempt, and
exits 0 with the answer, 1 when it gives up.

    python3 ceiling.py POLICY

POLICY is its ceiling and what it does above it:
  none        keeps every wait asked, however long
  fallback60  keeps waits up to 60 s; above, falls back to its backoff
  giveup60    keeps waits up to 60 s; above, gives up
  giveup120   keeps waits up to 120 s; above, gives up
  cap300      keeps waits up to 300 s; above, waits 300 s
  unbounded   keeps every wait asked, and never gives up
Without retry-after it backs off 0.5 s doubling up to 8 s; all but
unbounded give up after 10 attempts. It ends on any status under 500
but 429, and on x-should-retry: false.
"""
import json
import os
import sys
import time
import urllib.error
import urllib.request

POLICIES = {
    "none": (None, "wait"),
    "fallback60": (60, "backoff"),
    "giveup60": (60, "giveup"),
    "giveup120": (120, "giveup"),
    "cap300": (300, "cap"),
    "unbounded": (None, "wait"),
}


def send(url, body):
    req = urllib.request.Request(url, data=body, method="POST", headers={
        "content-type": "application/json", "x-api-key": os.environ.get("ANTHROPIC_API_KEY", ""),
        "anthropic-version": "2023-06-01"})
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            r.read()
            return r.status, {}
    except urllib.error.HTTPError as e:
        e.read()
        return e.code, {k.lower(): v for k, v in e.headers.items()}
    except OSError:  # a reset, a refused or timed-out connection: retried as a 5xx
        return 599, {}


def main():
    policy = sys.argv[1]
    ceiling, above = POLICIES[policy]
    url = os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages"
    body = json.dumps({"model": os.environ.get("FAULTBENCH_MODEL", "primary"), "max_tokens": 1024,
                       "messages": [{"role": "user", "content": "hi"}]}).encode()
    attempt = 0
    while True:
        attempt += 1
        status, headers = send(url, body)
        if status == 200:
            print("answered at attempt", attempt)
            return 0
        if (status < 500 and status != 429) or headers.get("x-should-retry") == "false":
            print("stopped on", status)
            return 1
        if policy != "unbounded" and attempt >= 10:
            print("gave up after", attempt, "attempts")
            return 1
        backoff = min(8.0, 0.5 * 2 ** min(attempt - 1, 5))
        asked = headers.get("retry-after")
        if asked is None:
            time.sleep(3.0 if policy == "unbounded" else backoff)
            continue
        asked = float(asked)
        if ceiling is None or asked <= ceiling:
            time.sleep(asked)
        elif above == "backoff":
            time.sleep(backoff)
        elif above == "cap":
            time.sleep(ceiling)
        else:
            print("retry-after", asked, "is over", ceiling, "s: giving up")
            return 1


if __name__ == "__main__":
    sys.exit(main())
