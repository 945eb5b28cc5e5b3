"""LangGraph checkpoints on plain Redis: the latest checkpoint of each workflow thread.

LangGraph's own Redis saver needs the RedisJSON and RediSearch modules (Redis 8 or Redis Stack);
Manda runs on any Redis ≥ 6, so workflows keep their state with plain hashes. A workflow needs
its latest state only (no time travel), so this saver is shallow: each `put` replaces the
thread's checkpoint and its pending writes in one MULTI/EXEC transaction, and the keys expire
after `ttl_seconds` without activity.

Semantics follow LangGraph's checkpointer contract (https://langchain-ai.github.io/langgraph/
reference/checkpoints/): `aput` stores only the channels whose version changed, `aput_writes`
keeps the first write of a (task, index) pair, special writes (errors, interrupts) overwrite.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_checkpoint_id,
    get_checkpoint_metadata,
    writes_sort_key,
)
from redis.asyncio import Redis

__all__ = ["ShallowRedisSaver"]

_PREFIX = "manda:wf"
DEFAULT_TTL_SECONDS = 90 * 24 * 3600


def _key(thread_id: str, ns: str) -> str:
    return f"{_PREFIX}:{thread_id}:{ns}"


class ShallowRedisSaver(BaseCheckpointSaver[str]):
    """The latest checkpoint per (thread, namespace) in a Redis hash; pending writes beside it."""

    def __init__(self, client: Redis, *, ttl_seconds: int = DEFAULT_TTL_SECONDS) -> None:
        super().__init__()
        self._redis = client
        self._ttl = ttl_seconds

    # ---- reading
    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        thread_id = str(config["configurable"]["thread_id"])
        ns = str(config["configurable"].get("checkpoint_ns", ""))
        data: dict[bytes, bytes] = await self._redis.hgetall(_key(thread_id, ns))
        if not data or b"id" not in data:
            return None
        checkpoint_id = data[b"id"].decode()
        wanted = get_checkpoint_id(config)
        if wanted and wanted != checkpoint_id:
            return None  # shallow: only the latest checkpoint is kept
        checkpoint: Checkpoint = self.serde.loads_typed(
            (data[b"c:t"].decode(), data[b"c:b"]))
        versions = checkpoint["channel_versions"]
        values: dict[str, Any] = {}
        for channel in versions:
            kind = data.get(f"bt:{channel}".encode())
            if kind is None or kind == b"empty":
                continue
            values[channel] = self.serde.loads_typed(
                (kind.decode(), data[f"bb:{channel}".encode()]))
        metadata = self.serde.loads_typed((data[b"m:t"].decode(), data[b"m:b"]))
        parent = data.get(b"parent", b"").decode() or None
        return CheckpointTuple(
            config={"configurable": {"thread_id": thread_id, "checkpoint_ns": ns,
                                     "checkpoint_id": checkpoint_id}},
            checkpoint={**checkpoint, "channel_values": values},
            metadata=metadata,
            pending_writes=await self._pending(thread_id, ns, checkpoint_id),
            parent_config=({"configurable": {"thread_id": thread_id, "checkpoint_ns": ns,
                                             "checkpoint_id": parent}} if parent else None),
        )

    async def _pending(self, thread_id: str, ns: str, checkpoint_id: str
                       ) -> list[tuple[str, str, Any]]:
        raw: dict[bytes, bytes] = await self._redis.hgetall(_key(thread_id, ns) + ":w")
        if raw.pop(b"for", b"").decode() != checkpoint_id:
            return []
        rows: list[tuple[tuple[str, str, int], tuple[str, str, Any]]] = []
        for field, value in raw.items():
            if not field.endswith(b"|m"):
                continue
            task_id, channel, kind, task_path, idx = json.loads(value)
            blob = raw[field[:-2] + b"|v"]
            rows.append((writes_sort_key(task_path, task_id, idx),
                         (task_id, channel, self.serde.loads_typed((kind, blob)))))
        return [row for _, row in sorted(rows, key=lambda r: r[0])]

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        if config is None or limit == 0:
            return
        found = await self.aget_tuple(config)
        if found is None:
            return
        if filter and any(found.metadata.get(k) != v for k, v in filter.items()):
            return
        if before is not None and get_checkpoint_id(before) and \
                found.config["configurable"]["checkpoint_id"] >= get_checkpoint_id(before):
            return
        yield found

    # ---- writing
    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        thread_id = str(config["configurable"]["thread_id"])
        ns = str(config["configurable"].get("checkpoint_ns", ""))
        key = _key(thread_id, ns)
        stored = dict(checkpoint)
        values: dict[str, Any] = stored.pop("channel_values")  # type: ignore[assignment]
        c_type, c_blob = self.serde.dumps_typed(stored)
        m_type, m_blob = self.serde.dumps_typed(get_checkpoint_metadata(config, metadata))
        mapping: dict[str, bytes | str] = {
            "id": checkpoint["id"], "parent": config["configurable"].get("checkpoint_id") or "",
            "c:t": c_type, "c:b": c_blob, "m:t": m_type, "m:b": m_blob,
        }
        for channel in new_versions:
            if channel in values:
                kind, blob = self.serde.dumps_typed(values[channel])
                mapping[f"bt:{channel}"], mapping[f"bb:{channel}"] = kind, blob
            else:
                mapping[f"bt:{channel}"], mapping[f"bb:{channel}"] = "empty", b""
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=mapping)
            pipe.expire(key, self._ttl)
            pipe.delete(key + ":w")  # writes belong to the checkpoint they were made on
            await pipe.execute()
        return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ns,
                                 "checkpoint_id": checkpoint["id"]}}

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        thread_id = str(config["configurable"]["thread_id"])
        ns = str(config["configurable"].get("checkpoint_ns", ""))
        checkpoint_id = str(config["configurable"]["checkpoint_id"])
        key = _key(thread_id, ns) + ":w"
        current = await self._redis.hget(key, "for")
        existing: set[bytes] = set()
        if current is not None and current.decode() == checkpoint_id:
            existing = set(await self._redis.hkeys(key))
        mapping: dict[str, bytes | str] = {"for": checkpoint_id}
        for n, (channel, value) in enumerate(writes):
            idx = WRITES_IDX_MAP.get(channel, n)
            field = f"{task_id}|{idx}"
            if idx >= 0 and f"{field}|m".encode() in existing:
                continue  # a regular write is kept once; special writes replace
            kind, blob = self.serde.dumps_typed(value)
            mapping[f"{field}|m"] = json.dumps([task_id, channel, kind, task_path, idx])
            mapping[f"{field}|v"] = blob
        async with self._redis.pipeline(transaction=True) as pipe:
            if current is not None and current.decode() != checkpoint_id:
                pipe.delete(key)
            pipe.hset(key, mapping=mapping)
            pipe.expire(key, self._ttl)
            await pipe.execute()

    async def adelete_thread(self, thread_id: str) -> None:
        keys = [k async for k in self._redis.scan_iter(match=f"{_PREFIX}:{thread_id}:*")]
        if keys:
            await self._redis.delete(*keys)

    def get_next_version(self, current: str | None, channel: None) -> str:
        """Monotonic versions, as LangGraph's own savers make them (`{n:032}.{random}`)."""
        if current is None:
            number = 0
        elif isinstance(current, int):
            number = current
        else:
            number = int(str(current).split(".")[0])
        return f"{number + 1:032}.{random.random():016}"
