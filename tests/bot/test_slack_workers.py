"""Several bot workers: two `manda serve` processes sharing Redis behind a round-robin balancer.

The small version of `bench/slack_load.py`'s burst, end to end over real HTTP: 10 mentions at
once (app_mention + message each, alternating between the workers), sent by the bench's sender
process as Slack sends them (each signed, over its own connection), get exactly 10 threaded
answers, none twice. The balancer is HAProxy with the README's configuration where `haproxy` is
installed (`scripts/test.sh` installs it), else the bench's Python proxy. Ack latency is the
bench's figure, never asserted here.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
MENTIONS = 10

pytestmark = [pytest.mark.slow, pytest.mark.redis]


def _load_bench() -> ModuleType:
    """bench/ is a folder of scripts, not a package: load the Slack load bench by path."""
    name = "manda_bench_slack_load"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / "slack_load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


async def test_two_workers_behind_a_proxy_answer_every_mention_once(home_copy: Path) -> None:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server not installed; `apt-get install redis-server`")
    bench = _load_bench()
    # the suite's ingested home (the bench ingests its own `bench.DEAL` with `prepare_home`)
    assert bench.DEAL == "targetco"

    [burst] = await bench.load_workers(home_copy, binary, MENTIONS, 5, 2)

    assert burst.path == bench.balancer()
    assert burst.sent is not None and burst.sent.statuses == [200] * 2 * MENTIONS
    assert (burst.answers, burst.duplicates, burst.lost) == (MENTIONS, 0, 0)
    # the proxy alternates: each worker acked half of the 2 x 10 requests
    assert burst.acked_by_worker == [MENTIONS, MENTIONS]
