"""A modal opened within the click's ack path, filled in when its content is ready.

A `trigger_id` opens a modal once, within 3 seconds of the click
(https://docs.slack.dev/reference/methods/views.open); the checks and store reads behind a
modal's content, and a rate limiter holding a method back for a 429's `Retry-After`, can take
longer. So the click opens a loading view with its trigger at once, and the content (or why there
is none) replaces it by `views.update`, which needs no trigger
(https://docs.slack.dev/reference/methods/views.update).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.modals import render_loading_modal, render_notice_modal

log = logging.getLogger(__name__)


@dataclass
class OpenedModal:
    """The loading modal a click opened (`view_id` None when Slack refused to open it)."""

    client: AsyncWebClient
    title: str
    view_id: str | None = None
    shown: bool = False  # its content (or a notice) replaced the loading view

    @classmethod
    async def open(cls, client: AsyncWebClient, trigger_id: str | None,
                   title: str) -> OpenedModal:
        modal = cls(client, title)
        if not trigger_id:
            return modal
        try:
            reply = await client.views_open(trigger_id=trigger_id,
                                            view=render_loading_modal(title))
        except SlackApiError as exc:
            log.warning("could not open the %r modal (%s)", title, exc.response.get("error"))
            return modal
        modal.view_id = str((reply.get("view") or {}).get("id") or "") or None
        return modal

    @property
    def open_(self) -> bool:
        """Open and still loading: what the clicker is looking at."""
        return self.view_id is not None and not self.shown

    async def show(self, view: dict[str, Any]) -> bool:
        """Put `view` in place of the loading view; False when there is no modal to update."""
        if self.view_id is None:
            log.warning("the %r modal was never opened; its content is not shown", self.title)
            return False
        try:
            await self.client.views_update(view_id=self.view_id, view=view)
        except SlackApiError as exc:
            log.warning("could not fill the %r modal (%s)", self.title, exc.response.get("error"))
            return False
        self.shown = True
        return True

    async def say(self, text: str) -> bool:
        """Tell the clicker, in the modal they are looking at, why there is nothing to fill in."""
        return await self.show(render_notice_modal(self.title, text))
