"""What people do in the fake workspace — post, mention, run commands, click, upload, open Home —
each turned into the same requests Slack would send to the app.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.fakeslack import payloads
from bot.fakeslack.blockkit import validate_modal
from bot.fakeslack.server import Delivery, FakeSlackServer
from bot.fakeslack.state import Channel, Message, User

ChannelRef = Channel | str
UserRef = User | str
MessageRef = Message | tuple[str, str]


class FakeSlack(FakeSlackServer):
    """The fake Slack with its people: what a person does reaches the app as Slack sends it."""

    # ------------------------------------------------------------ lookups

    def user(self, ref: UserRef) -> User:
        return ref if isinstance(ref, User) else self.workspace.users[ref]

    def channel(self, ref: ChannelRef) -> Channel:
        return ref if isinstance(ref, Channel) else self.workspace.channels[ref]

    def message(self, ref: MessageRef) -> Message:
        if isinstance(ref, Message):
            return ref
        found = self.workspace.find(*ref)
        if found is None:
            raise KeyError(f"no message {ref[1]} in {ref[0]}")
        return found

    @property
    def bot_mention(self) -> str:
        return f"<@{self.workspace.bot.id}>"

    # ------------------------------------------------------------ messages

    async def say(
        self, user: UserRef, channel: ChannelRef, text: str, *, thread_ts: str | None = None
    ) -> Message:
        """Post as `user`; the app gets `message` (and `app_mention` when it is mentioned)."""
        message = self.post(user, channel, text, thread_ts=thread_ts)
        await self.announce(message)
        return message

    def post(
        self, user: UserRef, channel: ChannelRef, text: str, *, thread_ts: str | None = None
    ) -> Message:
        """Post as `user` without telling the app yet: `events_for` gives what Slack would send
        (a load bench sends those bodies itself, from its own process)."""
        author, where = self.user(user), self.channel(channel)
        if author.id not in where.members:
            raise ValueError(f"{author.name} is not a member of #{where.name}")
        ws = self.workspace
        message = ws.add_message(
            Message(
                channel=where.id,
                ts=ws.new_ts(),
                text=text,
                user=author.id,
                bot_id=author.bot_id,
                thread_ts=thread_ts,
            )
        )
        return message

    async def mention(
        self, user: UserRef, channel: ChannelRef, text: str, *, thread_ts: str | None = None
    ) -> Message:
        return await self.say(user, channel, f"{self.bot_mention} {text}", thread_ts=thread_ts)

    async def dm(self, user: UserRef, text: str, *, thread_ts: str | None = None) -> Message:
        """A direct message to the bot."""
        im = self.workspace.open_im(self.user(user).id)
        return await self.say(user, im, text, thread_ts=thread_ts)

    async def announce(
        self, message: Message, files: Sequence[dict[str, Any]] = ()
    ) -> list[Delivery]:
        """Deliver the events Slack sends for `message`, if the bot is in its channel (and the
        app is connected at all: without it, people just talk among themselves)."""
        if not self.app_connected:
            return []
        return [await self.send_event(event) for event in self.events_for(message, files)]

    def events_for(
        self, message: Message, files: Sequence[dict[str, Any]] = ()
    ) -> list[dict[str, Any]]:
        """The events Slack sends for `message`, in order: `app_mention` when the bot is
        mentioned outside a DM, then `message`; none if the bot is not in the channel."""
        where = self.channel(message.channel)
        if self.workspace.bot.id not in where.members:
            return []
        events = []
        if self.bot_mention in message.text and where.kind != "im":
            events.append(payloads.app_mention_event(self.workspace, message))
        events.append(
            payloads.message_event(self.workspace, message, where, files=list(files) or None)
        )
        return events

    async def send_event(
        self,
        event: dict[str, Any],
        *,
        event_id: str | None = None,
        retry_num: int | None = None,
        timestamp: int | None = None,
        signing_secret: str | None = None,
    ) -> Delivery:
        """Wrap `event` in an Events API callback and deliver it."""
        body = payloads.event_callback(self.workspace, event, event_id=event_id)
        return await self.deliver(
            "events_api",
            body,
            retry_num=retry_num,
            timestamp=timestamp,
            signing_secret=signing_secret,
        )

    async def redeliver(self, delivery: Delivery, *, retry_num: int) -> Delivery:
        """Send the same request again, as Slack retries one it thinks was not acknowledged."""
        return await self.deliver(delivery.kind, delivery.payload, retry_num=retry_num)

    # ------------------------------------------------------------ commands

    async def slash(
        self, user: UserRef, channel: ChannelRef, command: str, text: str = ""
    ) -> Delivery:
        """Run a slash command; what the app acks with is shown as Slack shows it."""
        author, where = self.user(user), self.channel(channel)
        response_url = self.new_hook(where.id, author.id)
        form = payloads.slash_command(self.workspace, author, where, command, text, response_url)
        self.workspace.issue_trigger(str(form["trigger_id"]), author.id)  # it may open a modal
        delivery = await self.deliver("slash_commands", form)
        self._show_ack(delivery, where.id, author.id)
        return delivery

    def _show_ack(self, delivery: Delivery, channel: str, user: str) -> None:
        if delivery.status != 200 or not delivery.body:
            return
        data = delivery.json
        if data is None:
            data = {"text": delivery.body}
        if not (data.get("text") or data.get("blocks")):
            return
        ws = self.workspace
        ws.add_message(
            Message(
                channel=channel,
                ts=ws.new_ts(),
                text=str(data.get("text") or ""),
                blocks=data.get("blocks") or [],
                user=ws.bot.id,
                bot_id=ws.bot.bot_id,
                ephemeral_to=None if data.get("response_type") == "in_channel" else user,
            )
        )

    # ------------------------------------------------------------ buttons

    @staticmethod
    def find_action(
        blocks: Iterable[dict[str, Any]], action_id: str, value: str | None = None
    ) -> tuple[dict[str, Any], str]:
        for block in blocks:
            candidates = list(block.get("elements", []) or [])
            if isinstance(block.get("accessory"), dict):
                candidates.append(block["accessory"])
            for element in candidates:
                if not isinstance(element, dict) or element.get("action_id") != action_id:
                    continue
                if element.get("type") == "overflow":  # a click picks one of its options
                    options = [o for o in element.get("options", [])
                               if value is None or o.get("value") == value]
                    if options:
                        picked = {**element, "selected_option": options[0]}
                        return picked, str(block.get("block_id", ""))
                    continue
                if value is None or element.get("value") == value:
                    return element, str(block.get("block_id", ""))
        raise LookupError(
            f"no button with action_id {action_id!r}" + (" and that value" if value else "")
        )

    async def click(
        self, user: UserRef, message: MessageRef, action_id: str, *, value: str | None = None
    ) -> Delivery:
        """Click a button of a message (an ephemeral one too, given as a `Message`), as `user`."""
        clicker, found = self.user(user), self.message(message)
        if found.ephemeral_to not in (None, clicker.id):
            raise LookupError(f"{clicker.name} cannot see message {found.ts}")
        where = self.channel(found.channel)
        element, block_id = self.find_action(found.blocks, action_id, value)
        api_message = found.to_api()
        body = payloads.block_actions(
            self.workspace,
            clicker,
            element,
            block_id,
            message=api_message,
            channel=where,
            response_url=self.new_hook(where.id, clicker.id, found.ts),
            ephemeral=found.ephemeral_to is not None,
        )
        self.workspace.issue_trigger(str(body["trigger_id"]), clicker.id)
        return await self.deliver("interactive", body)

    async def submit_view(
        self, user: UserRef, values: Mapping[str, Mapping[str, str | Sequence[str] | None]]
    ) -> Delivery:
        """Submit the modal open for `user`; `values` is {block_id: {action_id: what}}: the text
        of a plain_text_input, the chosen option's value of a static_select, the ticked options'
        values of checkboxes. Inputs left out keep their initial values, as in Slack.

        An ack with `response_action: errors` keeps the modal open (its errors in
        `Workspace.modal_errors`), as Slack shows them under the fields; one with
        `response_action: update` shows its `view` in place of the submitted one (checked as
        views.open checks a view: https://docs.slack.dev/surfaces/modals#updating_response).
        An input block is required unless `optional`: left empty, Slack's client keeps the
        modal open with "This field is required" and sends the app nothing (the delivery's
        status is 0).
        https://docs.slack.dev/reference/interaction-payloads/view-interactions-payload
        https://docs.slack.dev/reference/block-kit/blocks/input-block
        """
        who = self.user(user)
        view = self.workspace.modals.get(who.id)
        if view is None:
            raise LookupError(f"no modal is open for {who.name}")
        state = view_state(view, values)
        missing = {block_id: "This field is required." for block_id in _left_empty(view, state)}
        if missing:
            self.workspace.show_modal(who.id, view, errors=missing)
            return Delivery(kind="interactive", payload={}, status=0, body="", via="http")
        body = {
            "type": "view_submission",
            "team": {"id": self.workspace.team_id, "domain": self.workspace.domain},
            "user": {"id": who.id, "username": who.name, "name": who.name,
                     "team_id": self.workspace.team_id},
            "api_app_id": self.workspace.app_id,
            "token": "fake-verification-token",
            "trigger_id": f"{int(time.time())}.{uuid.uuid4().int % 10**12}",
            "view": {**view, "state": {"values": state}},
        }
        delivery = await self.deliver("interactive", body)
        data = delivery.json or {}
        if delivery.status == 200 and data.get("response_action") == "errors":
            self.workspace.show_modal(who.id, view, errors=dict(data.get("errors") or {}))
        elif delivery.status == 200 and data.get("response_action") == "update":
            update = data.get("view")
            problems = validate_modal(update) if isinstance(update, dict) else ["no view"]
            if problems:
                raise AssertionError(f"Slack would refuse the updated view: {problems}")
            # the same view (its id), other content: Slack gives it a new `hash`
            self.workspace.show_modal(who.id, {**update, "id": view.get("id"),
                                               "hash": self.workspace.new_id("H")})
        else:
            self.workspace.show_modal(who.id, None)
        return delivery

    def close_view(self, user: UserRef) -> None:
        """Cancel the modal open for `user` (the app is not told: no notify_on_close)."""
        self.workspace.show_modal(self.user(user).id, None)

    async def click_home(
        self, user: UserRef, action_id: str, *, value: str | None = None
    ) -> Delivery:
        """Click a button of the Home tab the app published for `user`."""
        clicker = self.user(user)
        view = self.workspace.home_views.get(clicker.id)
        if view is None:
            raise LookupError(f"no Home view published for {clicker.name}")
        element, block_id = self.find_action(view.get("blocks", []), action_id, value)
        body = payloads.block_actions(self.workspace, clicker, element, block_id, view=view)
        self.workspace.issue_trigger(str(body["trigger_id"]), clicker.id)
        return await self.deliver("interactive", body)

    # ------------------------------------------------------------ files and Home

    async def upload(
        self,
        user: UserRef,
        channel: ChannelRef,
        files: Mapping[str, bytes] | Sequence[tuple[str, bytes]],
        *,
        text: str = "",
        thread_ts: str | None = None,
    ) -> Message:
        """Share files in a channel: a `file_share` message, then a `file_shared` event per file."""
        author, where = self.user(user), self.channel(channel)
        ws = self.workspace
        items = list(files.items()) if isinstance(files, Mapping) else list(files)
        stored = [ws.add_file(name, content, user=author.id) for name, content in items]
        for f in stored:
            f.channels.append(where.id)
        message = ws.add_message(
            Message(
                channel=where.id,
                ts=ws.new_ts(),
                text=text,
                user=author.id,
                thread_ts=thread_ts,
                subtype="file_share",
                files=[f.id for f in stored],
            )
        )
        await self.announce(message, [f.to_api(self.base_url, ws.team_id) for f in stored])
        if ws.bot.id in where.members and self.app_connected:
            for f in stored:
                await self.send_event(payloads.file_shared_event(ws, f.id, author.id, where.id))
        return message

    async def open_home(self, user: UserRef) -> Delivery:
        person = self.user(user)
        im = self.workspace.open_im(person.id)
        return await self.send_event(
            payloads.app_home_opened_event(self.workspace, person.id, im.id)
        )

    # ------------------------------------------------------------ waiting

    async def wait_for_replies(
        self, channel: ChannelRef, thread_ts: str, count: int = 1, *, timeout: float = 10.0
    ) -> list[Message]:
        """The bot's first `count` visible messages in a thread, once they exist."""
        where = self.channel(channel)

        def ready() -> list[Message] | None:
            found = [
                m
                for m in self.workspace.bot_messages(where.id, thread_ts=thread_ts)
                if m.ts != thread_ts and not m.streaming
            ]
            return found if len(found) >= count else None

        return await self.workspace.wait_for(
            ready, timeout=timeout, what=f"{count} bot replies in thread {thread_ts}"
        )


def view_state(
    view: Mapping[str, Any], values: Mapping[str, Mapping[str, str | Sequence[str] | None]]
) -> dict[str, dict[str, dict[str, Any]]]:
    """`view.state.values` as Slack sends it: every input's element, with what was entered or
    chosen (`values`) or else its initial value."""
    state: dict[str, dict[str, dict[str, Any]]] = {}
    for block in view.get("blocks", []):
        element = block.get("element") if block.get("type") == "input" else None
        if not isinstance(element, dict):
            continue
        block_id, action_id = str(block.get("block_id")), str(element.get("action_id"))
        given = values.get(block_id, {})
        entered = given.get(action_id) if action_id in given else _UNSET
        state.setdefault(block_id, {})[action_id] = _element_state(element, entered)
    return state


_UNSET: Any = object()


def _left_empty(
    view: Mapping[str, Any], state: Mapping[str, Mapping[str, Mapping[str, Any]]]
) -> list[str]:
    """The required input blocks (not `optional`) with nothing entered, ticked or chosen."""
    empty = []
    for block in view.get("blocks", []):
        if block.get("type") != "input" or block.get("optional"):
            continue
        for entered in state.get(str(block.get("block_id")), {}).values():
            if not (entered.get("selected_options") or entered.get("selected_option")
                    or str(entered.get("value") or "")):
                empty.append(str(block.get("block_id")))
    return empty


def _element_state(element: Mapping[str, Any], entered: Any) -> dict[str, Any]:
    kind = element.get("type")
    every = [*element.get("options", []),
             *(o for g in element.get("option_groups") or [] for o in g.get("options", []))]
    options = {str(o.get("value")): o for o in every}
    if kind == "checkboxes":
        if entered is _UNSET:
            chosen = list(element.get("initial_options") or [])
        else:
            wanted = [entered] if isinstance(entered, str) else list(entered or [])
            unknown = [w for w in wanted if w not in options]
            if unknown:
                raise LookupError(f"no option {unknown} in checkboxes {element.get('action_id')}")
            chosen = [options[w] for w in wanted]
        return {"type": kind, "selected_options": chosen}
    if kind in ("static_select", "radio_buttons"):
        if entered is _UNSET:
            chosen_one = element.get("initial_option")
        elif entered is None:
            chosen_one = None
        elif str(entered) in options:
            chosen_one = options[str(entered)]
        else:
            raise LookupError(f"no option {entered!r} in {kind} {element.get('action_id')}")
        return {"type": kind, "selected_option": chosen_one}
    value = element.get("initial_value") if entered is _UNSET else entered
    return {"type": kind or "plain_text_input", "value": value}
