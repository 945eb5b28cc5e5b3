"""`manda playground`: the real bot on this machine, used from a Slack-like page in a browser,
with the same fake Slack the tests use — no Slack workspace, token or public URL involved."""

from bot.playground.server import Playground

__all__ = ["Playground"]
