"""manifest.yml is an app Slack accepts and the app it describes is the bot we run: its creation
rules (scope ↔ feature ↔ event), every subscribed event and slash command handled, every Web API
method the bot calls covered by a requested scope, and no scope requested that nothing uses.

Slack's rules are written down beside the table that pins them, with the page that documents them.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.commands import SHORTCUTS, SLASH, slash_commands, usage_hint
from bot.deps import Deps
from bot.listeners import register_all
from manda.app import Manda
from manda.config import Settings

ROOT = Path(__file__).parents[2]
MANIFEST = ROOT / "manifest.yml"
# The code that runs against a real Slack (the fake Slack and the playground only talk to it).
BOT_SOURCES = [p for p in (ROOT / "bot").rglob("*.py") if not {"fakeslack"} & set(p.parts)]

# Bot scope each Web API method needs; None: no scope. Each row from the method's reference page,
# https://docs.slack.dev/reference/methods/<method> ("Scopes · Bot token"):
METHOD_SCOPES: dict[str, set[str] | None] = {
    "chat.postMessage": {"chat:write"},  # .../methods/chat.postMessage
    "chat.postEphemeral": {"chat:write"},  # .../methods/chat.postEphemeral
    "chat.update": {"chat:write"},  # .../methods/chat.update
    "chat.startStream": {"chat:write"},  # .../methods/chat.startStream
    "chat.appendStream": {"chat:write"},  # .../methods/chat.appendStream
    "chat.stopStream": {"chat:write"},  # .../methods/chat.stopStream
    # chat:write since https://docs.slack.dev/changelog/2026/03/05/set-status-scope-update
    "assistant.threads.setStatus": {"chat:write"},
    "reactions.add": {"reactions:write"},  # .../methods/reactions.add
    "reactions.remove": {"reactions:write"},  # .../methods/reactions.remove
    "files.info": {"files:read"},  # .../methods/files.info
    "files.getUploadURLExternal": {"files:write"},  # .../methods/files.getUploadURLExternal
    "files.completeUploadExternal": {"files:write"},  # .../methods/files.completeUploadExternal
    # one of these per kind of conversation asked about (public / private channels)
    "conversations.members": {"channels:read", "groups:read"},  # .../methods/conversations.members
    "users.info": {"users:read"},  # .../methods/users.info
    "views.publish": None,  # .../methods/views.publish (no scope)
    "chat.getPermalink": None,  # .../methods/chat.getPermalink (no scope): a told fact's link
    "views.open": None,  # .../methods/views.open (no scope): the slide Edit modal
    "views.update": None,  # .../methods/views.update (no scope): a modal opened at the click
    "auth.test": None,  # .../methods/auth.test (no scope); Bolt calls it on the first request
}
# Bot scope each subscribed event needs, from https://docs.slack.dev/reference/events/<event>
EVENT_SCOPES: dict[str, str | None] = {
    "app_mention": "app_mentions:read",
    "message.channels": "channels:history",
    "message.groups": "groups:history",
    "message.im": "im:history",
    "message.mpim": "mpim:history",
    "app_home_opened": None,
    "assistant_thread_started": "assistant:write",
    "assistant_thread_context_changed": "assistant:write",
}
# Scopes that a feature needs and features a scope needs, at creation
# (https://docs.slack.dev/reference/app-manifest): Slack refuses an app that asks for
# assistant:write without features.assistant_view ("Assistant:write scope should include
# assistant_view feature"); slash commands need the `commands` scope.
SCOPE_NEEDS_FEATURE = {"assistant:write": "assistant_view"}
FEATURE_NEEDS_SCOPE = {"slash_commands": "commands"}
# Downloading a shared file's url_private needs files:read
# (https://docs.slack.dev/reference/scopes/files.read).
DOWNLOAD_SCOPE = "files:read"


@pytest.fixture(scope="module")
def manifest() -> dict[str, Any]:
    loaded = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def bot_scopes(manifest: dict[str, Any]) -> set[str]:
    return set(manifest["oauth_config"]["scopes"]["bot"])


def bot_events(manifest: dict[str, Any]) -> list[str]:
    return list(manifest["settings"]["event_subscriptions"]["bot_events"])


class Registrations:
    """Stands in for Bolt's `AsyncApp` while the listeners register, and notes what they handle."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self.commands: list[str] = []
        self.actions: list[Any] = []

    def _note(self, into: list[Any], what: Any) -> Callable[[Callable[..., Any]], Any]:
        into.append(what)
        return lambda listener: listener

    def event(self, what: Any) -> Callable[[Callable[..., Any]], Any]:
        return self._note(self.events, what)

    def command(self, what: str) -> Callable[[Callable[..., Any]], Any]:
        return self._note(self.commands, what)

    def action(self, what: Any) -> Callable[[Callable[..., Any]], Any]:
        return self._note(self.actions, what)

    def view(self, what: Any) -> Callable[[Callable[..., Any]], Any]:
        return self._note(self.actions, what)

    def middleware(self, listener: Callable[..., Any]) -> Callable[..., Any]:
        return listener

    def event_types(self) -> set[str]:
        return {e if isinstance(e, str) else e["type"] for e in self.events}


@pytest.fixture(scope="module")
def registered(tmp_path_factory: pytest.TempPathFactory) -> Registrations:
    settings = Settings(MANDA_HOME=tmp_path_factory.mktemp("manifest-home"))
    app = Registrations()
    register_all(app, Deps(manda=Manda(settings), settings=settings))  # type: ignore[arg-type]
    return app


def called_methods() -> set[str]:
    """Web API methods the bot calls: `client.chat_postMessage(...)` is `chat.postMessage`."""
    methods: set[str] = set()
    for path in BOT_SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name in ("client", "_client") and "_" in node.func.attr:
                methods.add(node.func.attr.replace("_", "."))
    return methods | {"auth.test"}


def test_slack_accepts_the_scopes_features_and_events(manifest: dict[str, Any]) -> None:
    scopes, features = bot_scopes(manifest), manifest["features"]
    for scope, feature in SCOPE_NEEDS_FEATURE.items():
        assert scope not in scopes or feature in features, f"{scope} needs features.{feature}"
    for feature, scope in FEATURE_NEEDS_SCOPE.items():
        assert feature not in features or scope in scopes, f"features.{feature} needs {scope}"
    for event in bot_events(manifest):
        assert event in EVENT_SCOPES, f"{event}: add its required scope to EVENT_SCOPES"
        needed = EVENT_SCOPES[event]
        assert needed is None or needed in scopes, f"event {event} needs the {needed} scope"
    # https://docs.slack.dev/reference/app-manifest: 174 to 4,000 characters, or Slack refuses it
    assert 174 <= len(manifest["display_information"]["long_description"]) <= 4000


def test_every_called_web_api_method_has_its_scope(manifest: dict[str, Any]) -> None:
    scopes, methods = bot_scopes(manifest), called_methods()
    assert {"chat.postMessage", "views.publish", "conversations.members"} <= methods
    unknown = methods - set(METHOD_SCOPES)
    assert not unknown, f"add these methods' scopes (from their reference pages): {unknown}"
    for method in methods:
        needed = METHOD_SCOPES[method]
        assert needed is None or needed <= scopes, f"{method} needs {needed}"


def test_no_scope_is_requested_that_nothing_uses(
    manifest: dict[str, Any], registered: Registrations
) -> None:
    used: set[str] = {DOWNLOAD_SCOPE} if "file_share" in str(registered.events) else set()
    for method in called_methods():
        used |= METHOD_SCOPES[method] or set()
    used |= {s for e in bot_events(manifest) if (s := EVENT_SCOPES[e])}
    used |= {FEATURE_NEEDS_SCOPE[f] for f in manifest["features"] if f in FEATURE_NEEDS_SCOPE}
    assert bot_scopes(manifest) <= used, f"unused scopes: {bot_scopes(manifest) - used}"
    assert "assistant:write" not in bot_scopes(manifest)  # statuses use chat:write (see above)


def test_every_subscribed_event_and_command_is_handled(
    manifest: dict[str, Any], registered: Registrations
) -> None:
    handled = registered.event_types()
    for event in bot_events(manifest):
        # message.channels / .groups / .im arrive as events of type "message"
        assert event.split(".")[0] in handled, f"{event} is subscribed but no listener handles it"
    listed = [c["command"] for c in manifest["features"]["slash_commands"]]
    assert sorted(listed) == sorted(registered.commands)
    assert manifest["settings"]["interactivity"]["is_enabled"] is bool(registered.actions)


def test_the_slash_commands_are_the_command_table(manifest: dict[str, Any]) -> None:
    listed = {c["command"]: c for c in manifest["features"]["slash_commands"]}
    assert set(listed) == set(slash_commands())
    assert listed[SLASH]["usage_hint"] == usage_hint()
    for shortcut, command in SHORTCUTS.items():
        assert listed[shortcut]["description"] == command.shortcut_description
    assert all(c["should_escape"] is False for c in listed.values())
