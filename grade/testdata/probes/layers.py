"""A probe client for the specs of grade's layers, stream-error and
budget checks: one turn against the mock's base URL, by the policy
argv[1] names, in the standard library alone.

  one        one retry loop: 4 attempts, X-Stainless-Retry-Count 0..3,
             waits 50 ms * 2^n; stops on a 4xx other than 408, 409, 429.
  two        an app loop of 3 rounds, 0.3 s apart, around an SDK-like
             loop of 2 retries (X-Stainless-Retry-Count 0, 1, 2; waits
             50 and 100 ms).
  safe       streams; resends an error event that came before any text,
             stops (exit 1) on one that came after text; else as one.
  giveup     streams; stops (exit 1) on any error event.
  claims     streams; an error event after text ends the turn with exit
             0, on the half answer.
  resend     streams; resends on any error event.
  naive      retries every failure at once, 6 attempts.
"""
import json
import os
import sys
import time
import urllib.error
import urllib.request

POLICY = sys.argv[1]
WIRE = os.environ.get("FAULTBENCH_WIRE", "anthropic")
MODEL = os.environ.get("FAULTBENCH_MODEL", "primary")
STREAM = POLICY in ("safe", "giveup", "claims", "resend")


def send(count):
    """One attempt: (status, body text, error event seen, text seen)."""
    body = {"model": MODEL, "max_tokens": 1024, "messages": [{"role": "user", "content": "hi"}]}
    if STREAM:
        body["stream"] = True
    headers = {"content-type": "application/json", "x-stainless-retry-count": str(count)}
    if WIRE == "openai":
        url = os.environ["OPENAI_BASE_URL"] + "/chat/completions"
        headers["authorization"] = "Bearer " + os.environ.get("OPENAI_API_KEY", "")
    else:
        url = os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages"
        headers["anthropic-version"] = "2023-06-01"
        headers["x-api-key"] = os.environ.get("ANTHROPIC_API_KEY", "")
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            if not STREAM:
                return resp.status, resp.read().decode(), False, False
            failed, text = False, False
            for line in resp:
                line = line.decode().strip()
                if line.startswith("event: error") or line.startswith('data: {"error"') or line.startswith('data: {"type":"error"'):
                    failed = True
                    break
                if "text_delta" in line or ('"content":"' in line and '"content":""' not in line):
                    text = True
            return resp.status, "", failed, text
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), False, False
    except OSError as e:
        return 0, str(e), False, False


def permanent(status):
    return 400 <= status < 500 and status not in (408, 409, 429)


def loop(attempts, wait):
    """An SDK-like loop: (answered, status of the last attempt)."""
    status = 0
    for n in range(attempts):
        status, _, failed, text = send(n)
        if status == 200 and not failed:
            return True, status
        if failed:
            if POLICY == "giveup" or (POLICY == "safe" and text):
                return False, status
            if POLICY == "claims" and text:
                print("half an answer, taken as the whole")
                sys.exit(0)
        elif permanent(status) and POLICY != "naive":
            return False, status
        if n + 1 < attempts and POLICY != "naive":
            time.sleep(wait * 2 ** n)
    return False, status


def main():
    if POLICY == "two":
        for rnd in range(3):
            ok, status = loop(3, 0.05)
            if ok:
                return 0
            if permanent(status):
                break
            if rnd < 2:
                time.sleep(0.3)
        print("gave up")
        return 1
    ok, _ = loop(6 if POLICY == "naive" else 4, 0.05)
    if not ok:
        print("gave up")
    return 0 if ok else 1


sys.exit(main())
