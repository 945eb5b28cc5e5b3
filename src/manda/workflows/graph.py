"""A workflow as a LangGraph graph of one step per message, its state in a checkpoint."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

__all__ = ["build_step_graph"]


def build_step_graph(
    step: Callable[..., Awaitable[dict[str, Any]]],
    *,
    state_schema: type,
    context_schema: type,
    checkpointer: BaseCheckpointSaver | None = None,
) -> CompiledStateGraph:
    """START → step → END, compiled with `checkpointer`: each message runs `step` once on the
    state the thread's last message left."""
    graph = StateGraph(state_schema, context_schema=context_schema)
    graph.add_node("step", step)
    graph.add_edge(START, "step")
    graph.add_edge("step", END)
    return graph.compile(checkpointer=checkpointer)
