"""Bolt listeners, one module per kind of Slack request; each only acks and starts a job."""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp

from bot.deps import Deps
from bot.listeners import (
    actions,
    answer_more,
    commands,
    files,
    grid,
    home,
    knowledge,  # noqa: F401  (its `/manda` handlers register on import, `@handles`)
    mentions,
    messages,
    middleware,
    modals,
    qa_import,
    qa_list,
    timeline,
    trace,
    workflows,
)


def register_all(app: AsyncApp, deps: Deps) -> None:
    middleware.register(app, deps)
    files.register(app, deps)  # before messages: Bolt runs the first listener that matches
    mentions.register(app, deps)
    messages.register(app, deps)
    commands.register(app, deps)
    actions.register(app, deps)
    modals.register(app, deps)
    answer_more.register(app, deps)
    qa_list.register(app, deps)
    qa_import.register(app, deps)
    workflows.register(app, deps)
    timeline.register(app, deps)
    trace.register(app, deps)
    grid.register(app, deps)
    home.register(app, deps)
