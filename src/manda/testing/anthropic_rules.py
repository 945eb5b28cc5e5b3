"""What the Messages API refuses with 400 `invalid_request_error`, for the local Messages API.

Each rule is the current models' (the default, Claude Sonnet 5.5, for an id no family table
knows), with the page that states it; the
messages are the API's where a real one is known (quoted from error reports), else a plain
paraphrase that names the field. `refusal(body)` is the first rule a request body breaks.
"""

from __future__ import annotations

import re
from typing import Any

from manda.llm.calls import traits_of

EFFORTS = ("low", "medium", "high", "xhigh", "max")


def refusal(body: dict[str, Any]) -> str | None:
    """The message of the 400 a `POST /v1/messages` body earns, or None when it is accepted."""
    for rule in (_tools, _messages, _tool_use_ids, _pairing, _prefill, _thinking, _effort,
                 _tool_choice):
        problem = rule(body)
        if problem is not None:
            return problem
    return None


def thinks_first(body: dict[str, Any]) -> bool:
    """Whether the model thinks before it writes: adaptive thinking is on unless the request
    turns it off (`between_tools` keeps only short notes between tool calls)."""
    thinking = body.get("thinking")
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    return kind in (None, "adaptive")


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")


def _tools(body: dict[str, Any]) -> str | None:
    """A user-defined tool has a `name` matching ^[a-zA-Z0-9_-]{1,128}$, unique among the tools,
    and an `input_schema` that is a JSON Schema object
    (https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools#specifying-client-tools),
    valid under JSON Schema draft 2020-12: an `enum` that is no array, a `type` no JSON type, or
    the older tuple form of `items` is refused with the message below (quoted from
    https://github.com/acomagu/vscode-as-mcp-server/issues/6)."""
    from jsonschema import Draft202012Validator  # a dev dependency: only tests run this server
    from jsonschema.exceptions import SchemaError

    seen: set[str] = set()
    for n, tool in enumerate(body.get("tools") or []):
        if not isinstance(tool, dict) or tool.get("type", "custom") != "custom":
            continue  # Anthropic's own tools (bash, web search …) are declared by their type
        name = tool.get("name")
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            return (f"tools.{n}.custom.name: String should match pattern "
                    f"'^[a-zA-Z0-9_-]{{1,128}}$' (got {name!r})")
        if name in seen:
            return "tools: Tool names must be unique."
        seen.add(name)
        schema = tool.get("input_schema")
        if not isinstance(schema, dict):
            return f"tools.{n}.custom.input_schema: Field required"
        if schema.get("type") != "object":
            return f"tools.{n}.custom.input_schema.type: Input should be 'object'"
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError:
            return (f"tools.{n}.custom.input_schema: JSON schema is invalid. It must match JSON "
                    "Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more "
                    "about tool use at https://docs.anthropic.com/en/docs/tool-use.")
    return None


def _messages(body: dict[str, Any]) -> str | None:
    """A message's role is "user" or "assistant" (the system prompt is the top-level `system`,
    https://platform.claude.com/docs/en/api/messages; the message quoted from
    https://github.com/aaronrussell/anthropix/issues/2); every message but a final assistant
    one has content (quoted from https://github.com/anthropics/claude-code/issues/4416); and
    no text block is empty or only whitespace (quoted from
    https://github.com/anthropics/claude-code/issues/59812 and
    https://github.com/anthropics/claude-code/issues/23352)."""
    messages = body.get("messages") or []
    for i, message in enumerate(messages):
        role = message.get("role")
        if role == "system":
            return ('messages: Unexpected role "system". The Messages API accepts a top-level '
                    '`system` parameter, not "system" as an input message role.')
        if role not in ("user", "assistant"):
            return f"messages.{i}.role: Input should be 'user' or 'assistant'"
        content = message.get("content")
        final_assistant = role == "assistant" and i == len(messages) - 1
        if not content and not final_assistant:
            return (f"messages.{i}: all messages must have non-empty content except for the "
                    "optional final assistant message")
        for block in _blocks(message):
            if block.get("type") != "text":
                continue
            text = block.get("text")
            if not text:
                return "messages: text content blocks must be non-empty"
            if not str(text).strip():
                return "messages: text content blocks must contain non-whitespace text"
    return None


TOOL_USE_ID = re.compile(r"^[a-zA-Z0-9_-]+$")


def _tool_use_ids(body: dict[str, Any]) -> str | None:
    """Each `tool_use` id matches ^[a-zA-Z0-9_-]+$ and is used once in the whole conversation
    (the messages quoted from https://github.com/anomalyco/opencode/issues/1279 and
    https://github.com/anthropics/claude-code/issues/21317; ids are the API's own,
    https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use)."""
    seen: set[str] = set()
    for i, message in enumerate(body.get("messages") or []):
        if message.get("role") != "assistant":
            continue
        for j, block in enumerate(_blocks(message)):
            if block.get("type") != "tool_use":
                continue
            ident = block.get("id")
            if not isinstance(ident, str) or not TOOL_USE_ID.match(ident):
                return (f"messages.{i}.content.{j}.tool_use.id: String should match pattern "
                        "'^[a-zA-Z0-9_-]+$'")
            if ident in seen:
                return f"messages.{i}.content.{j}: `tool_use` ids must be unique"
            seen.add(ident)
    return None


def _pairing(body: dict[str, Any]) -> str | None:
    """Every `tool_use` is answered by a `tool_result` in the very next (user) message, a
    `tool_result` answers a `tool_use` of the message just before it, and a message's tool
    results come before any text in it
    (https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks)."""
    messages = body.get("messages") or []
    for i, message in enumerate(messages):
        blocks = _blocks(message)
        if message.get("role") == "user":
            asked = set()
            if i > 0 and messages[i - 1].get("role") == "assistant":
                asked = {b.get("id") for b in _blocks(messages[i - 1])
                         if b.get("type") == "tool_use"}
            kinds = [b.get("type") for b in blocks]
            last = max((n for n, k in enumerate(kinds) if k == "tool_result"), default=-1)
            if last >= 0 and any(k != "tool_result" for k in kinds[:last]):
                # text may follow a message's tool results, never come before or between them
                return (f"messages.{i}: `tool_result` blocks must come FIRST in the content "
                        "array; any text must come after all tool results.")
            for j, block in enumerate(blocks):
                if block.get("type") == "tool_result" and block.get("tool_use_id") not in asked:
                    return (f"messages.{i}.content.{j}: unexpected `tool_use_id` found in "
                            f"`tool_result` blocks: {block.get('tool_use_id')}. Each "
                            "`tool_result` block must have a corresponding `tool_use` block in "
                            "the previous message.")
            continue
        calls = [b.get("id") for b in blocks if b.get("type") == "tool_use"]
        if not calls:
            continue
        following = messages[i + 1] if i + 1 < len(messages) else None
        answered = {b.get("tool_use_id") for b in _blocks(following or {})
                    if b.get("type") == "tool_result"} if following is not None \
            and following.get("role") == "user" else set()
        missing = [c for c in calls if c not in answered]
        if missing:
            return (f"messages.{i}: `tool_use` ids were found without `tool_result` blocks "
                    f"immediately after: {', '.join(map(str, missing))}. Each `tool_use` block "
                    "must have a corresponding `tool_result` block in the next message.")
    return None


def _prefill(body: dict[str, Any]) -> str | None:
    """The current models take no assistant prefill
    (https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5)."""
    messages = body.get("messages") or []
    if messages and messages[-1].get("role") == "assistant":
        return ("This model does not support assistant message prefill. The conversation must "
                "end with a user message.")
    return None


def _thinking(body: dict[str, Any]) -> str | None:
    """Each model takes its own `thinking` types (`manda.llm.calls.MODEL_TRAITS`, from each
    family's page; `scripts/live-check.sh` compares it with the real model's capabilities): Claude
    Sonnet 5.5 takes `adaptive` and `between_tools`, and refuses `disabled` and a budget
    (https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5#turn-off-up-front-thinking)."""
    thinking = body.get("thinking")
    if thinking is None:
        return None
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    accepted = traits_of(str(body.get("model") or "")).thinking
    if kind not in ("adaptive", "between_tools", "disabled", "enabled"):
        return f"thinking.type: Input tag '{kind}' does not match any of the expected tags"
    if kind not in accepted:
        if kind == "disabled" and "between_tools" in accepted:
            return ('"thinking.type.disabled" is not supported for this model. Use '
                    '"thinking.type.between_tools" to turn off up-front thinking.')
        if kind == "enabled" and "adaptive" in accepted:
            return ('"thinking.type.enabled" is not supported for this model. Use '
                    '"thinking.type.adaptive" and "output_config.effort" to control thinking '
                    "behavior.")
        return f'"thinking.type.{kind}" is not supported for this model.'
    effort = (body.get("output_config") or {}).get("effort")
    if kind == "between_tools" and effort in ("xhigh", "max"):
        return (f'"thinking.type.between_tools" is not supported with effort "{effort}": use '
                "adaptive thinking at xhigh or max effort.")
    return None


def _effort(body: dict[str, Any]) -> str | None:
    """`output_config.effort` is one of five levels
    (https://platform.claude.com/docs/en/build-with-claude/effort)."""
    config = body.get("output_config")
    if config is None:
        return None
    effort = config.get("effort") if isinstance(config, dict) else None
    if effort is not None and not traits_of(str(body.get("model") or "")).effort:
        return "output_config.effort: this model does not support the effort parameter"
    if effort is not None and effort not in EFFORTS:
        return (f"output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or "
                f"'max' (got {effort!r})")
    return None


def _tool_choice(body: dict[str, Any]) -> str | None:
    """Forced tool use returns an error on Claude Sonnet 5.5
    (https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5#forced-tool-use-is-not-supported)."""
    choice = body.get("tool_choice")
    kind = choice.get("type") if isinstance(choice, dict) else None
    if kind in ("any", "tool"):
        return (f"tool_choice.type: forced tool use ({kind!r}) is not supported for this "
                "model; use 'auto' or 'none'.")
    return None
