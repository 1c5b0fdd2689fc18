#!/usr/bin/env python3
"""A probe client of known behaviour for `faultbench grade` (standard library only).

    faultbench grade -- python3 grade/testdata/probes/probe.py POLICY [START_SECONDS]

It sends one turn on the wire FAULTBENCH_WIRE names (anthropic, openai:
Chat Completions, gemini), streamed when FAULTBENCH_STREAM is true, after
sleeping START_SECONDS (a client slow to start). POLICY is one of:

  careful   honours retry-after-ms, retry-after, Gemini's RetryInfo and
            x-should-retry; stops on a permanent error (400, 401, 403,
            404, a 429 insufficient_quota); waits equal jitter,
            U(b/2, b) with b = 0.5 s * 2^n; after three overloads asks the
            fallback model; after an overflow lowers max_tokens and halves
            its prompt; gives up on a request with no answer in 15 s; 6 attempts.
  blind     retries every failure, 6 attempts, a flat 1 s between them;
            reads no header; resends an overflow unchanged; no fallback.
  never     one request.
  swallow   one request, and exits 0 whatever happened.
  spinner   retries every failure at once, 40 attempts.
  ignorer   careful, but reads neither retry-after-ms nor x-should-retry.
  exact     careful, but its waits exactly 0.5 s * 2^n, no jitter.
  hiccup    retries every failure at once, 9 attempts, one 0.15 s pause.

grade/testdata/probes/probe.mjs is the same client in Node (fetch);
scripts/grade-probes.sh grades both and compares every verdict with the
one each policy should get.
"""
import http.client
import json
import os
import random
import re
import sys
import time
import urllib.error
import urllib.request

POLICY = sys.argv[1] if len(sys.argv) > 1 else "careful"
START = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
CAREFUL = POLICY in ("careful", "ignorer", "exact")
ENV = os.environ
WIRE = ENV.get("FAULTBENCH_WIRE", "anthropic")
STREAM = ENV.get("FAULTBENCH_STREAM") == "true"
FALLBACK = [m for m in ENV.get("FAULTBENCH_FALLBACK_MODEL", "").split(",") if m]
OVERFLOW = re.compile(r"context|input token count|exceed", re.I)


class Failure(Exception):
    def __init__(self, status, body="", headers=None):
        super().__init__(f"{status} {body[:200]}")
        self.status, self.body, self.headers = status, body, headers or {}


def request(model, prompt, max_tokens):
    """One attempt; returns the answer's text or raises Failure (status 0: no answer)."""
    if WIRE == "openai":
        url = ENV["OPENAI_BASE_URL"].rstrip("/") + "/chat/completions"
        body = {"model": model, "max_tokens": max_tokens, "stream": STREAM,
                "messages": [{"role": "user", "content": prompt}]}
        headers = {"authorization": "Bearer " + ENV.get("OPENAI_API_KEY", "")}
        done = "[DONE]"
    elif WIRE == "gemini":
        verb = "streamGenerateContent?alt=sse" if STREAM else "generateContent"
        url = f"{ENV['GOOGLE_GEMINI_BASE_URL'].rstrip('/')}/v1beta/models/{model}:{verb}"
        body = {"contents": [{"role": "user", "parts": [{"text": prompt}]}],
                "generationConfig": {"maxOutputTokens": max_tokens}}
        headers = {"x-goog-api-key": ENV.get("GEMINI_API_KEY", "")}
        done = "finishReason"
    else:
        url = ENV["ANTHROPIC_BASE_URL"].rstrip("/") + "/v1/messages"
        body = {"model": model, "max_tokens": max_tokens, "stream": STREAM,
                "messages": [{"role": "user", "content": prompt}]}
        headers = {"x-api-key": ENV.get("ANTHROPIC_API_KEY", ""), "anthropic-version": "2023-06-01"}
        done = "message_stop"
    headers["content-type"] = "application/json"
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=15) as resp:
            text = resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        raise Failure(e.code, e.read().decode("utf-8", "replace"), {k.lower(): v for k, v in e.headers.items()})
    except (OSError, http.client.HTTPException) as e:  # reset, timeout, a cut body
        raise Failure(0, str(e))
    if STREAM and done not in text:
        raise Failure(0, "the stream ended before its end")
    return text


def permanent(f):
    if f.status in (400, 401, 403, 404):
        return True
    return f.status == 429 and "insufficient_quota" in f.body


def asked_wait(f):
    """The wait the answer asks for, in seconds, or None."""
    h = f.headers
    if POLICY != "ignorer" and h.get("retry-after-ms"):
        return float(h["retry-after-ms"]) / 1000
    if h.get("retry-after"):
        try:
            return float(h["retry-after"])
        except ValueError:
            return None
    m = re.search(r'"retryDelay"\s*:\s*"([0-9.]+)s"', f.body)
    return float(m.group(1)) if m else None


def careful_wait(f, n):
    asked = asked_wait(f)
    if asked is not None:
        return asked * random.uniform(1.0, 1.1) if POLICY != "exact" else asked
    b = 0.5 * 2 ** n
    return b if POLICY == "exact" else random.uniform(b / 2, b)


def main():
    time.sleep(START)
    model = ENV.get("FAULTBENCH_MODEL") or "primary"
    prompt, max_tokens = "Say hello, please. " * 8, 1024
    attempts = {"careful": 6, "ignorer": 6, "exact": 6, "blind": 6, "spinner": 40, "hiccup": 9}.get(POLICY, 1)
    overloads = 0
    last = None
    for n in range(attempts):
        if n > 0:
            if CAREFUL:
                time.sleep(careful_wait(last, n - 1))
            elif POLICY == "blind":
                time.sleep(1.0)
            elif POLICY == "hiccup" and n == 4:
                time.sleep(0.15)
        try:
            text = request(model, prompt, max_tokens)
            print(f"answered: {len(text)} bytes")
            return 0
        except Failure as f:
            last = f
            print(f"attempt {n + 1}: {f}", file=sys.stderr)
        if not CAREFUL:
            continue
        if last.status == 400 and OVERFLOW.search(last.body):
            max_tokens, prompt = 512, prompt[: len(prompt) // 2]
            continue
        if permanent(last):
            break
        if POLICY != "ignorer" and last.headers.get("x-should-retry") == "false":
            break
        if last.status in (503, 529):
            overloads += 1
            if overloads >= 3 and FALLBACK and model != FALLBACK[0]:
                model = FALLBACK[0]
    print(f"failed: {last}", file=sys.stderr)
    return 0 if POLICY == "swallow" else 1


if __name__ == "__main__":
    sys.exit(main())
