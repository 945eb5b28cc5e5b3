"""The playground's workspace: you, two teammates, deal channels linked to the sample deals
through the bot's own `/manda deal` command, an unlinked #general and a DM with Manda."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.fakeslack import Channel, FakeSlack, User

DEAL_CHANNELS = {"deal-targetco": "targetco", "deal-northwind": "northwind",
                 "deal-pennine": "pennine", "deal-fernhill": "fernhill"}
TEAMMATES = (("priya", "Priya Shah"), ("marcus", "Marcus Lee"))
TOPICS = {
    "deal-targetco": "Due diligence on TargetCo — its data room is indexed; ask @Manda",
    "deal-northwind": "Due diligence on Northwind — its data room is indexed; ask @Manda",
    "deal-pennine": "Project Kestrel: Pennine Precision Engineering (UK, FY to 31 March) — "
                    "ask @Manda",
    "deal-fernhill": "Fernhill Components: its contracts (customers, suppliers, a lease, "
                     "employment, banking) — try /manda grid",
    "general": "Firm-wide chatter — not linked to any deal",
}
GREETINGS = {
    "general": (
        "priya",
        "Welcome! Each #deal- channel is linked to one deal, and Manda answers there only "
        "from that deal's documents. This channel is not linked to any deal.",
    ),
    "deal-targetco": (
        "marcus",
        "The seller's data room for TargetCo is loaded. Ask @Manda before digging through "
        "the folders, and put open questions on the Q&A list.",
    ),
}


@dataclass
class Seeded:
    """Who and what the playground starts with."""

    you: User
    teammates: list[User]
    channels: dict[str, Channel]  # by name
    dm: Channel


def people_and_places(fake: FakeSlack) -> Seeded:
    """Users and channels (no request to the app yet)."""
    ws = fake.workspace
    you = ws.add_user("you", real_name="You")
    team = [ws.add_user(name, real_name=real) for name, real in TEAMMATES]
    members = [you.id, *(t.id for t in team)]
    channels = {
        name: ws.add_channel(name, members=members, topic=TOPICS.get(name, ""))
        for name in ("general", *DEAL_CHANNELS)
    }
    return Seeded(you=you, teammates=team, channels=channels, dm=ws.open_im(you.id))


async def link_deals(
    fake: FakeSlack, seeded: Seeded, settle: Callable[[], Awaitable[None]]
) -> None:
    """Link each deal channel as a person would, with `/manda deal <id>`, and say hello."""
    by_name = {u.name: u for u in seeded.teammates}
    for channel_name, (author, text) in GREETINGS.items():
        await fake.say(by_name[author], seeded.channels[channel_name], text)
    for channel_name, deal_id in DEAL_CHANNELS.items():
        await fake.slash(seeded.you, seeded.channels[channel_name], "/manda", f"deal {deal_id}")
    await settle()
