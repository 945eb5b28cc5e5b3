"""Acks before work: a job started while requests are being acked waits until they are."""

from __future__ import annotations

import asyncio

from bot.background import BackgroundJobs


async def test_a_job_starts_once_the_open_acks_are_sent() -> None:
    jobs = BackgroundJobs()
    started: list[str] = []

    async def work(name: str) -> None:
        started.append(name)

    with jobs.acking():
        with jobs.acking():
            jobs.spawn(work("first"), name="first")
            await asyncio.sleep(0.02)
        jobs.spawn(work("second"), name="second")
        await asyncio.sleep(0.02)
        assert started == []  # one request is still being acked
    await jobs.drain()
    assert sorted(started) == ["first", "second"]


async def test_a_job_is_delayed_at_most_the_ack_first_bound() -> None:
    jobs = BackgroundJobs(ack_first_seconds=0.05)
    started = asyncio.Event()

    async def work() -> None:
        started.set()

    with jobs.acking():  # a request that never finishes its ack
        jobs.spawn(work(), name="starved")
        await asyncio.wait_for(started.wait(), timeout=5)  # raises TimeoutError if starved
        assert started.is_set()


async def test_without_open_acks_a_job_starts_at_once() -> None:
    jobs = BackgroundJobs(ack_first_seconds=30)  # were it delayed, the wait below would end it
    started = asyncio.Event()

    async def work() -> None:
        started.set()

    jobs.spawn(work(), name="now")
    await asyncio.wait_for(started.wait(), timeout=5)  # raises TimeoutError if held back
    assert started.is_set()
