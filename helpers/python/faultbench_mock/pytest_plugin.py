"""The pytest plugin: the ``faultbench_mock`` fixture.

Enable it with ``pytest_plugins = ["faultbench_mock.pytest_plugin"]`` in a
conftest.py (or install the package: its pytest11 entry point does it).
The fixture is a function: ``fb = faultbench_mock({...})`` or
``faultbench_mock("scenario.yaml")`` starts serve with that scenario; every
server it started stops when the test ends, passed, failed or errored.
"""

import pytest

import faultbench_mock as _fb


@pytest.fixture
def faultbench_mock():
    started = []

    def start(scenario, session=None, binary=None):
        fb = _fb.start(scenario, session=session, binary=binary)
        started.append(fb)
        return fb

    yield start
    for fb in started:
        fb.stop()
