"""One answer per question across workers: an event gate and a named lock (Redis or in-process)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from manda.errors import BackendUnavailableError, MandaError

if TYPE_CHECKING:
    from manda.memory.port import ConversationMemory
    from manda.memory.redis import RedisConversationMemory

log = logging.getLogger(__name__)

DEFAULT_LEASE_SECONDS = 30.0

# Delete the key only if it still holds our token: an expired lock now held by someone else stays.
RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


@runtime_checkable
class EventGate(Protocol):
    async def first_time(self, key: str, ttl_seconds: int) -> bool:
        """True for the first caller with this key within `ttl_seconds`, False for every other."""
        ...


class MemoryEventGate:
    """An `EventGate` over a memory's `seen_event`: across workers with Redis, per file embedded."""

    def __init__(self, memory: ConversationMemory) -> None:
        self._memory = memory

    async def first_time(self, key: str, ttl_seconds: int) -> bool:
        return not await self._memory.seen_event(key, ttl_seconds)


class NamedLock(Protocol):
    def __call__(
        self, name: str, *, timeout: float = DEFAULT_LEASE_SECONDS, wait: float | None = None
    ) -> AbstractAsyncContextManager[None]:
        """Hold `name` for the block. `timeout`: the lease, after which a lock whose holder died
        frees itself; `wait`: how long to wait for it (default: `timeout`), else
        `LockNotAcquiredError`."""
        ...


class LockNotAcquiredError(MandaError):
    def __init__(self, name: str, waited: float) -> None:
        super().__init__(
            f"'{name}' is still being worked on by another worker after waiting {waited:g}s.",
            hint="Try again in a moment.",
        )
        self.name = name


class _TokenLock(ABC):
    """`async with lock(name, timeout=...)` over a token-checked acquire and release."""

    @abstractmethod
    async def acquire(self, name: str, *, timeout: float, wait: float | None = None) -> str:
        """Wait for `name`; the token that proves this holder owns it."""

    @abstractmethod
    async def release(self, name: str, token: str) -> bool:
        """True if `token` held the lock and it is now free; a stranger's token changes nothing."""

    @asynccontextmanager
    async def __call__(
        self, name: str, *, timeout: float = DEFAULT_LEASE_SECONDS, wait: float | None = None
    ) -> AsyncIterator[None]:
        token = await self.acquire(name, timeout=timeout, wait=wait)
        try:
            yield
        finally:
            try:
                released = await self.release(name, token)
            except BackendUnavailableError as exc:
                released = True  # the lease frees it; the block's own outcome matters more
                log.warning("Could not release lock %r (its lease will free it): %s", name, exc)
            if not released:
                log.warning("Lock %r outlived its %gs lease before its block ended", name, timeout)


class RedisLock(_TokenLock):
    """`SET NX PX` with a random token; released by a compare-and-delete script.

    Shares the started client of a `RedisConversationMemory`, so it opens no connection of its own.
    """

    def __init__(self, memory: RedisConversationMemory) -> None:
        self._memory = memory

    async def acquire(self, name: str, *, timeout: float, wait: float | None = None) -> str:
        token = secrets.token_hex(16)
        key = self._memory.key("lock", name)
        lease_ms = max(1, round(timeout * 1000))
        waited = timeout if wait is None else wait
        loop = asyncio.get_running_loop()
        deadline = loop.time() + waited
        pause = 0.005
        while not await self._claim(name, key, token, lease_ms):
            left = deadline - loop.time()
            if left <= 0:
                raise LockNotAcquiredError(name, waited)
            await asyncio.sleep(min(pause, left))
            pause = min(pause * 2, 0.1)
        return token

    async def _claim(self, name: str, key: str, token: str, lease_ms: int) -> bool:
        try:
            return await self._memory.claim(key, token, px=lease_ms)
        except asyncio.CancelledError:
            # The SET may have reached Redis before the cancel did: leave nothing held behind.
            with suppress(BackendUnavailableError):  # if Redis is gone, the lease frees it
                await self.release(name, token)
            raise

    async def release(self, name: str, token: str) -> bool:
        key = self._memory.key("lock", name)
        with self._memory.errors(f"releasing lock {name}"):
            return bool(await self._memory.client.eval(RELEASE_SCRIPT, 1, key, token))


@dataclass
class _Slot:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    token: str | None = None
    users: int = 0


class LocalLock(_TokenLock):
    """The same lock for one process (embedded mode): an `asyncio.Lock` per name.

    The lease is not enforced: a holder in this process always releases on leaving its block,
    cancellation included. Names nobody holds or waits for are forgotten.
    """

    def __init__(self) -> None:
        self._slots: dict[str, _Slot] = {}

    async def acquire(self, name: str, *, timeout: float, wait: float | None = None) -> str:
        slot = self._slots.setdefault(name, _Slot())
        slot.users += 1
        waited = timeout if wait is None else wait
        try:
            async with asyncio.timeout(waited):
                await slot.lock.acquire()
        except BaseException as exc:
            self._leave(name, slot)
            if isinstance(exc, TimeoutError):
                raise LockNotAcquiredError(name, waited) from None
            raise
        slot.token = token = secrets.token_hex(16)
        return token

    async def release(self, name: str, token: str) -> bool:
        slot = self._slots.get(name)
        if slot is None or slot.token != token:
            return False
        slot.token = None
        slot.lock.release()
        self._leave(name, slot)
        return True

    def _leave(self, name: str, slot: _Slot) -> None:
        slot.users -= 1
        if slot.users == 0 and self._slots.get(name) is slot:
            del self._slots[name]
