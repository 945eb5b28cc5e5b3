"""A local, stateful Slack for tests and the playground: the Web API the bot calls, plus the
people who send it events, commands and clicks over real HTTP or Socket Mode."""

from bot.fakeslack.actions import FakeSlack
from bot.fakeslack.server import Delivery
from bot.fakeslack.state import Call, Channel, Message, StoredFile, User, Workspace
from bot.fakeslack.webapi import Features

__all__ = [
    "Call",
    "Channel",
    "Delivery",
    "FakeSlack",
    "Features",
    "Message",
    "StoredFile",
    "User",
    "Workspace",
]
