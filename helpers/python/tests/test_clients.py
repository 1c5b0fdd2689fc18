import json
import os
import urllib.error
import urllib.request

import httpx
import pytest

import faultbench_mock as fbm
from sdk_retry import post

MODELS = {"m": {"context_window": 200000, "max_output": 8192}}
ASK = {"model": "m", "max_tokens": 4096, "messages": [{"role": "user", "content": "hi"}]}


def test_429_then_success_httpx_waits_what_retry_after_asks(faultbench_mock):
    fb = faultbench_mock({"models": MODELS, "script": [
        {"when": {"attempt": 1}, "respond": {"status": 429, "headers": {"retry-after-ms": "300"}}}]})
    resp = post(fb.anthropic_base_url + "/v1/messages", ASK)
    assert resp.status_code == 200
    fb.assert_statuses(429, 200)
    fb.assert_honored_retry_after()
    assert [e.get("retry_count") for e in fb.journal()] == [0, 1]


def test_sdk_defaults_three_attempts_then_the_last_answer(faultbench_mock):
    fb = faultbench_mock({"models": MODELS, "script": [{"respond": {"status": 529}}]})
    waits = []
    resp = post(fb.anthropic_base_url + "/v1/messages", ASK, rand=lambda: 0, sleep=waits.append)
    assert resp.status_code == 529
    fb.assert_attempts(3)
    assert waits == [0.5, 1.0], "0.5 s doubled, no jitter at rand() == 0"


def test_sdk_defaults_never_resend_a_permanent_error(faultbench_mock):
    fb = faultbench_mock({"models": MODELS, "script": [{"when": {"attempt": 1}, "respond": {"status": 401}}]})
    assert post(fb.anthropic_base_url + "/v1/messages", ASK).status_code == 401
    fb.assert_attempts(1)
    fb.assert_no_resend_after_permanent()


def test_a_urllib_client_that_resends_a_permanent_error_is_caught(faultbench_mock):
    fb = faultbench_mock({"models": MODELS, "script": [{"when": {"attempt": 1}, "respond": {"status": 400}}]}, session="urllib")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    for _ in range(2):  # a naive client: it tries again whatever the error
        req = urllib.request.Request(fb.openai_base_url + "/chat/completions", method="POST",
                                     data=json.dumps({"model": "m", "messages": ASK["messages"]}).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer t"})
        try:
            opener.open(req, timeout=30).read()
        except urllib.error.HTTPError as e:
            assert e.code == 400
    fb.assert_statuses(400, 200)
    with pytest.raises(AssertionError, match=r"request 1 got 400, a permanent error, and 1 more were sent after it"):
        fb.assert_no_resend_after_permanent()
    assert {e["wire"] for e in fb.journal()} == {"openai"}
    assert fb.session == "urllib"


def test_a_client_that_does_not_wait_fails_the_retry_after_check(faultbench_mock):
    fb = faultbench_mock({"models": MODELS, "script": [
        {"when": {"attempt": 1}, "respond": {"status": 429, "headers": {"retry-after": "30"}}}]})
    with httpx.Client(trust_env=False) as c:
        codes = [c.post(fb.anthropic_base_url + "/v1/messages", json=ASK, headers={"x-api-key": "t"}).status_code for _ in range(2)]
    assert codes == [429, 429]  # the early retry is refused, as a real limiter does
    with pytest.raises(AssertionError, match=r"request 2 came \d+ms after request 1, whose 429 asked to wait 30000ms"):
        fb.assert_honored_retry_after()


def test_an_invalid_scenario_names_field_and_reason(faultbench_mock):
    with pytest.raises(fbm.ScenarioError) as e:
        faultbench_mock({"models": MODELS, "script": [{"respond": {"status": 999}}]})
    assert "script[0].respond.status: must be an error status, 400 to 599, got 999" in str(e.value)
    assert e.value.problems[0]["field"] == "script[0].respond.status"


def test_a_scenario_file_and_its_problems_with_path_and_line(faultbench_mock, tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("name: good\ndescription: d\nmodels: {m: {context_window: 1000, max_output: 100}}\n")
    assert faultbench_mock(good).gemini_base_url.endswith("/good/s/test/")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\ndescription: d\nmodels: {m: {context_window: 1000, max_output: 100}}\nscript: [{respond: {stauts: 500}}]\n")
    with pytest.raises(fbm.ScenarioError, match=r"bad\.yaml:4:\d+: script\[0\]\.respond\.stauts: unknown field"):
        faultbench_mock(bad)


def test_no_binary_says_how_to_install_it():
    with pytest.raises(fbm.FaultbenchError, match=r"no faultbench binary on PATH; install it with `go install"):
        fbm.find_binary({"PATH": "/nonexistent"})


def test_stop_prints_the_ledger_and_a_context_manager_stops():
    with fbm.start({"name": "ledger", "models": MODELS}) as fb:
        with httpx.Client(trust_env=False) as c:
            c.post(fb.anthropic_base_url + "/v1/messages", json=ASK, headers={"x-api-key": "t"})
    assert "ledger" in fb.output
    with pytest.raises(httpx.ConnectError):
        httpx.get(fb.journal_url, trust_env=False)


def test_a_test_process_that_crashes_takes_its_server_with_it(tmp_path):
    import subprocess
    import sys
    code = ("import faultbench_mock as f\nfb = f.start({'models': %r})\nprint(fb.journal_url, flush=True)\nraise SystemExit(3)\n" % (MODELS,))
    run = subprocess.run([sys.executable, "-c", code], cwd=os.path.dirname(os.path.dirname(__file__)),
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 3, run.stderr
    with pytest.raises(httpx.ConnectError):
        httpx.get(run.stdout.strip(), trust_env=False)
