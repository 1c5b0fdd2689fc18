"""A client on httpx that retries as the official Python SDKs (anthropic,
openai) document and do by default: 2 retries (3 attempts); on a
connection error, 408, 409, 429 or a status >= 500, unless the answer
says x-should-retry: false; the wait is what retry-after-ms or
retry-after asks when that is over 0 and at most 60 s, else 0.5 s doubled
per retry up to 8 s, less up to 25 % of jitter; every attempt says its
retry number in X-Stainless-Retry-Count."""

import random
import time

import httpx

MAX_RETRIES = 2
INITIAL, MAX_WAIT = 0.5, 8.0


def _asked(resp):
    h = resp.headers
    try:
        if "retry-after-ms" in h:
            return float(h["retry-after-ms"]) / 1000
        if "retry-after" in h:
            return float(h["retry-after"])
    except ValueError:
        return None
    return None


def _should_retry(resp):
    if resp.headers.get("x-should-retry") in ("true", "false"):
        return resp.headers["x-should-retry"] == "true"
    return resp.status_code in (408, 409, 429) or resp.status_code >= 500


def post(url, body, client=None, rand=random.random, sleep=time.sleep):
    """POSTs body as JSON; returns the last response."""
    client = client or httpx.Client(trust_env=False)
    for retry in range(MAX_RETRIES + 1):
        resp = client.post(url, json=body, headers={"X-Stainless-Retry-Count": str(retry), "x-api-key": "test"})
        if resp.status_code < 400 or retry == MAX_RETRIES or not _should_retry(resp):
            return resp
        wait = _asked(resp)
        if wait is None or not 0 < wait <= 60:
            wait = min(INITIAL * 2 ** retry, MAX_WAIT) * (1 - 0.25 * rand())
        sleep(wait)
    return resp
