# The helper's own tests: the plugin, and a faultbench built from this
# repository unless FAULTBENCH_BIN names one.
import os
import subprocess
import tempfile

pytest_plugins = ["faultbench_mock.pytest_plugin"]


def pytest_configure(config):
    if os.environ.get("FAULTBENCH_BIN"):
        return
    repo = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    out = os.path.join(tempfile.mkdtemp(prefix="faultbench-py-"), "faultbench")
    subprocess.run(["go", "build", "-o", out, "./cmd/faultbench"], cwd=repo, check=True)
    os.environ["FAULTBENCH_BIN"] = out
