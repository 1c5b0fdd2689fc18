"""faultbench for a Python test: starts ``faultbench serve --empty`` on a
free loopback port, declares the test's scenario over its admin route
(POST /_faultbench/scenarios), and gives the base URLs of the scenario's
session for the official SDKs, its journal and one-line assertions.

Standard library only; Python >= 3.9. The pytest plugin
(faultbench_mock.pytest_plugin) gives the ``faultbench_mock`` fixture.
"""

import atexit
import itertools
import json
import os
import re
import shutil
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["Faultbench", "FaultbenchError", "ScenarioError", "start", "find_binary", "is_permanent"]

INSTALL = (
    "install it with `go install github.com/faultbench/faultbench/cmd/faultbench@latest` "
    "(Go >= 1.26; the binary lands in $(go env GOPATH)/bin), or set FAULTBENCH_BIN to its path"
)

_counter = itertools.count(1)
_running = set()  # the servers started and not stopped: stopped at exit


@atexit.register
def _stop_all():
    for fb in list(_running):
        fb.stop()
# urllib without the environment's proxies: the mock is on loopback.
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class FaultbenchError(Exception):
    """faultbench could not be found, started or asked."""


class ScenarioError(FaultbenchError):
    """The scenario was refused: problems lists each with its line, column, field and reason."""

    def __init__(self, message, problems):
        super().__init__(message)
        self.problems = problems


def is_permanent(status):
    """A status the official SDKs never retry: a 4xx other than 408, 409 and 429."""
    return 400 <= status < 500 and status not in (408, 409, 429)


def find_binary(env=None):
    """The faultbench binary: FAULTBENCH_BIN, else ``faultbench`` on PATH."""
    env = os.environ if env is None else env
    given = env.get("FAULTBENCH_BIN")
    if given:
        if os.path.isfile(given) and os.access(given, os.X_OK):
            return given
        raise FaultbenchError("FAULTBENCH_BIN=%s is not an executable file; %s" % (given, INSTALL))
    found = shutil.which("faultbench", path=env.get("PATH", ""))
    if not found:
        raise FaultbenchError("no faultbench binary on PATH; " + INSTALL)
    return found


def start(scenario, session=None, binary=None):
    """Serve one scenario: a dict (sent as JSON; name and description may
    be left out) or the path of a scenario file. Returns a Faultbench;
    stop it, or use it as a context manager. A refused scenario raises
    ScenarioError with its problems (a file's with its path and line)."""
    if isinstance(scenario, dict):
        sc = dict(scenario)
        sc.setdefault("name", "test-%d-%d" % (os.getpid(), next(_counter)))
        sc.setdefault("description", "declared in a test")
        body, path = json.dumps(sc).encode(), None
    else:
        path = os.fspath(scenario)
        with open(path, "rb") as f:
            body = f.read()
    exe = binary or find_binary()
    try:
        proc = subprocess.Popen(
            [exe, "serve", "--empty", "--addr", "127.0.0.1:0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
    except OSError as e:
        raise FaultbenchError("cannot start %s: %s; %s" % (exe, e, INSTALL)) from e
    fb = Faultbench(proc)
    _running.add(fb)
    try:
        fb._add(body, path, session)
    except BaseException:
        fb.stop()
        raise
    return fb


class Faultbench:
    """One running ``faultbench serve`` with one scenario declared."""

    def __init__(self, proc):
        self._proc = proc
        self._out = []
        self._stopped = False
        seen = threading.Event()
        origin = []

        def read_err():
            for raw in proc.stderr:
                line = raw.decode("utf-8", "replace")
                m = re.search(r" scenarios on (http://\S+) ", line)
                if m and not origin:
                    origin.append(m.group(1))
                    seen.set()
            seen.set()

        def read_out():
            for raw in proc.stdout:
                self._out.append(raw.decode("utf-8", "replace"))

        for fn in (read_err, read_out):
            threading.Thread(target=fn, daemon=True).start()
        if not seen.wait(30) or not origin:
            proc.kill()
            proc.wait(10)
            raise FaultbenchError("faultbench serve did not start (exit %s)" % proc.returncode)
        self.origin = origin[0]

    def _add(self, body, path, session):
        url = self.origin + "/_faultbench/scenarios"
        if session:
            url += "?session=" + urllib.parse.quote(session)
        req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/yaml"})
        try:
            with _opener.open(req, timeout=30) as resp:
                added = json.load(resp)
        except urllib.error.HTTPError as e:
            err = json.load(e).get("error", {})
            msg = err.get("message", "")
            if path:
                msg = "\n".join(("%s:%s" if l[:1].isdigit() else "%s: %s") % (path, l) for l in msg.split("\n"))
            raise ScenarioError("the scenario is refused (%d):\n%s" % (e.code, msg), err.get("problems", [])) from None
        self.name = added["name"]
        self.session = added["session"]
        self.anthropic_base_url = added["anthropic_base_url"].rstrip("/")
        self.openai_base_url = added["openai_base_url"].rstrip("/")
        self.gemini_base_url = added["gemini_base_url"]
        self.journal_url = added["journal_url"]

    def journal(self):
        """The session's journal: every request, in order (docs/reports.md)."""
        with _opener.open(self.journal_url, timeout=30) as resp:
            return json.load(resp)

    def requests(self):
        """The session's model requests: the journal without routes that reached no model."""
        return [e for e in self.journal() if not e.get("route")]

    def _say(self, reqs):
        return "journal: " + (" ".join(str(e["status"] or e["kind"]) for e in reqs) or "no request")

    def assert_attempts(self, n):
        reqs = self.requests()
        assert len(reqs) == n, "faultbench %s: %d attempts, expected %d (%s)" % (self.name, len(reqs), n, self._say(reqs))

    def assert_statuses(self, *want):
        got = tuple(e["status"] for e in self.requests())
        assert got == want, "faultbench %s: statuses %s, expected %s" % (self.name, got, want)

    def assert_honored_retry_after(self):
        """Every request that followed an answer asking to wait came at least that long after it."""
        reqs = self.requests()
        for prev, e in zip(reqs, reqs[1:]):
            assert e.get("honored_retry_after") is not False, (
                "faultbench %s: request %d came %dms after request %d, whose %d asked to wait %dms (%s)"
                % (self.name, e["n"], e["gap_ms"], prev["n"], prev["status"], prev.get("retry_after_ms", 0), self._say(reqs)))

    def assert_no_resend_after_permanent(self):
        """No request followed one that got a permanent error (a 4xx the SDKs never retry)."""
        reqs = self.requests()
        for i, e in enumerate(reqs[:-1]):
            assert not is_permanent(e["status"]), (
                "faultbench %s: request %d got %d, a permanent error, and %d more were sent after it (%s)"
                % (self.name, e["n"], e["status"], len(reqs) - 1 - i, self._say(reqs)))

    @property
    def output(self):
        """What serve printed on stdout: after stop, the journal as a ledger table."""
        return "".join(self._out)

    def stop(self):
        """Stops serve (SIGTERM, then SIGKILL after 10 s); twice is fine."""
        if self._stopped:
            return
        self._stopped = True
        _running.discard(self)
        self._proc.terminate()
        try:
            self._proc.wait(10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
