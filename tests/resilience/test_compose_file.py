"""docker-compose.yml: the bot, the worker, Neo4j 5 and Redis 7, health-checked, with volumes.

The YAML is checked here with no Docker at all; where a Compose CLI is installed (the `docker
compose` plugin or a `docker-compose` binary), Compose itself validates the file too — it needs
no Docker engine for that.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
ENV_EXAMPLE = ROOT / ".env.example"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def test_services_and_their_images(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert {"bot", "worker", "neo4j", "redis"} <= set(services)
    assert services["neo4j"]["image"].startswith("neo4j:5")
    assert services["redis"]["image"] == "redis:7-alpine"
    for name in ("bot", "worker"):
        assert services[name]["build"] == "."
        assert services[name]["env_file"] == ".env"


def test_the_bot_serves_http_and_the_worker_takes_jobs(compose: dict[str, Any]) -> None:
    services = compose["services"]
    # `serve` binds 127.0.0.1 unless told: in a container it must listen on every interface
    assert services["bot"]["command"] == ["manda", "serve", "--host", "0.0.0.0", "--port", "3000"]
    assert any(str(p).endswith(":3000") for p in services["bot"]["ports"])
    assert services["worker"]["command"] == ["manda", "worker"]
    socket_mode = services["bot-socket"]
    assert socket_mode["command"] == ["manda", "serve", "--socket"]
    assert socket_mode["profiles"] == ["socket"]  # not started unless asked for


def test_manda_reaches_the_backends_by_service_name(compose: dict[str, Any]) -> None:
    for name in ("bot", "worker", "bot-socket"):
        env = compose["services"][name]["environment"]
        assert env["NEO4J_URI"] == "bolt://neo4j:7687"
        assert env["REDIS_URL"].startswith("redis://redis:6379")
        assert env["MANDA_HOME"] == "/data"


def test_backends_are_health_checked_and_waited_for(compose: dict[str, Any]) -> None:
    services = compose["services"]
    neo4j_check = " ".join(services["neo4j"]["healthcheck"]["test"])
    assert "cypher-shell" in neo4j_check and "RETURN 1" in neo4j_check
    assert "redis-cli ping" in " ".join(services["redis"]["healthcheck"]["test"])
    for name in ("bot", "worker"):
        depends = services[name]["depends_on"]
        assert depends["neo4j"]["condition"] == "service_healthy"
        assert depends["redis"]["condition"] == "service_healthy"


def test_redis_persists_and_neo4j_gets_its_password(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert "--appendonly" in services["redis"]["command"]
    assert services["redis"]["command"][services["redis"]["command"].index("--appendonly") + 1] == (
        "yes"
    )
    assert services["neo4j"]["environment"]["NEO4J_AUTH"].startswith("neo4j/${NEO4J_PASSWORD")


def test_every_volume_used_is_a_declared_named_volume(compose: dict[str, Any]) -> None:
    declared = set(compose["volumes"])
    used = {
        str(mount).split(":")[0]
        for service in compose["services"].values()
        for mount in service.get("volumes", [])
    }
    assert used == declared == {"manda-home", "neo4j-data", "neo4j-logs", "redis-data"}


def test_every_variable_compose_reads_is_in_env_example() -> None:
    used = set(re.findall(r"(?<!\$)\$\{([A-Z0-9_]+)", COMPOSE.read_text(encoding="utf-8")))
    listed = set(re.findall(r"^#? ?([A-Z0-9_]+)=", ENV_EXAMPLE.read_text(), flags=re.MULTILINE))
    assert used and used <= listed, used - listed


def _compose_cli() -> list[str] | None:
    docker = shutil.which("docker")
    if docker is not None:
        probe = subprocess.run(
            [docker, "compose", "version"], capture_output=True, timeout=30, check=False
        )
        if probe.returncode == 0:
            return [docker, "compose"]
    standalone = shutil.which("docker-compose")
    return [standalone] if standalone is not None else None


def _run_config(cli: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "COMPOSE_"))}
    files = ["--project-directory", str(folder), "-f", str(folder / COMPOSE.name)]
    return subprocess.run(
        [*cli, *files, "config", "-q"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def test_compose_itself_accepts_the_file(tmp_path: Path) -> None:
    cli = _compose_cli()
    if cli is None:
        pytest.skip("no Compose CLI here (neither `docker compose` nor `docker-compose`)")
    shutil.copy(COMPOSE, tmp_path / COMPOSE.name)
    example = ENV_EXAMPLE.read_text(encoding="utf-8")

    (tmp_path / ".env").write_text(example)  # as shipped: the password is still to be chosen
    refused = _run_config(cli, tmp_path)
    assert refused.returncode != 0
    assert "set NEO4J_PASSWORD in .env" in refused.stderr

    filled = re.sub(r"^NEO4J_PASSWORD=$", "NEO4J_PASSWORD=long-test-password", example, flags=re.M)
    (tmp_path / ".env").write_text(filled)
    accepted = _run_config(cli, tmp_path)
    assert accepted.returncode == 0, accepted.stderr
