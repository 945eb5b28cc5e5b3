"""What a front end asks of conversations without reaching the memory store: was this thread
answered before, remember it, and was this delivery of an event seen before."""

from __future__ import annotations

import logging
from collections.abc import Callable

from manda.errors import BackendUnavailableError
from manda.memory.port import Conversation, ConversationMemory

log = logging.getLogger(__name__)


class ConversationService:
    """Threads Manda answered in and events it handled, over the short-term memory port."""

    def __init__(self, *, memory: ConversationMemory) -> None:
        self._memory = memory

    async def answered_before(self, conversation_id: str) -> bool:
        """True when Manda answered in this conversation, so replies continue without a mention."""
        return await self._memory.load(conversation_id) is not None

    async def remember(self, conversation_id: str, deal_id: str) -> None:
        """Make sure the conversation is known as Manda's (the agent normally saves it).

        With the memory unreachable the answer already given stands (the agent said it answered
        without memory); only replies without a mention will not be recognised there.
        """
        try:
            if await self._memory.load(conversation_id) is None:
                await self._memory.save(Conversation(id=conversation_id, deal_id=deal_id))
        except BackendUnavailableError as exc:
            log.warning("conversation %s not remembered: %s", conversation_id, exc)

    async def continue_in(self, source: str, target: str, deal_id: str) -> None:
        """Let a conversation go on under another key as well: an answer worked out before the
        message that carries it existed (a slash command's) continues in that message's thread.

        The source stays as it is, so buttons that name it keep working; the target starts as a
        copy of it (its messages and the context follow-ups inherit).
        """
        try:
            conversation = await self._memory.load(source)
            if conversation is None:
                conversation = Conversation(id=source, deal_id=deal_id)
            await self._memory.save(conversation.model_copy(update={"id": target}))
        except BackendUnavailableError as exc:
            log.warning("conversation %s not continued in %s: %s", source, target, exc)

    async def answer_text(self, conversation_id: str, digest: Callable[[str], str],
                          wanted: str) -> str | None:
        """The stored text of one of Manda's answers in the conversation, found by its digest
        (what a "Show more" asks for, after a restart too); None once memory has let it go."""
        conversation = await self._memory.load(conversation_id)
        if conversation is None:
            return None
        for message in reversed(conversation.messages):
            if message.role == "assistant" and digest(message.text.strip()) == wanted:
                return message.text
        return None

    async def seen_before(self, event_key: str, ttl_seconds: int) -> bool:
        """Record a delivered event; True when the same key was recorded within `ttl_seconds`."""
        return await self._memory.seen_event(event_key, ttl_seconds)
