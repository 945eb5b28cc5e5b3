"""Live checks against the real services: what the local fakes stand in for, asked of the real.

Run through `scripts/live-check.sh`. Each check names the item of issue 27 it covers and runs
only when its service is configured, else it is listed as skipped with the variable it needs:

- Claude (`ANTHROPIC_API_KEY`, and `MANDA_CLAUDE_MODEL` / `ANTHROPIC_BASE_URL` as deployed):
  the model by id, its thinking types and effort levels against what Manda sends (3); each kind
  of call (answer, slide, extraction) with its `thinking` and `effort` accepted (3); a tool loop
  with a re-prompt whose every `tool_use` is answered in the next message (1); a reply cut at a
  tiny cap continued by the next turn (3); an unknown model id answered from the findings with
  one line why (2); a time budget too short answered from the findings (3); an extraction asked
  again resumes from its kept batches with no request (5). An `overloaded_error` inside a stream
  (4) cannot be provoked: the retry is tested against the local Messages API.
- The live eval (issue 30, `ANTHROPIC_API_KEY`): `manda eval --live --token-budget N` (N from
  `MANDA_LIVE_EVAL_TOKENS`, default 200000) over the dev and held-out cases of every room and
  language, taken in turns so a budget spent part-way still reaches each; it prints each case
  right or wrong with its tokens, each room's tokens, and where the budget stopped it.
- Slack (`SLACK_BOT_TOKEN`, `MANDA_LIVE_CHANNEL` — a channel the bot is in — and
  `MANDA_LIVE_USER`, a member of it): a thread's working status, then a stream addressed to the
  member's own team (`users.info`), appended to and stopped with blocks (7). A modal opened
  within the ack path (6) needs a person's click and its trigger_id: its steps are printed.

Exit 0 when every check that ran passed, 1 when one failed, 2 when nothing could run.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

NOTE = """# Falcon deal notes (live check)

Revenue for Q3 2024 was EUR 5.2 million, up 10.6% year on year.
EBITDA for Q3 2024 was EUR 1.1 million.
Headcount was 180 employees as of 30 September 2024.
Thomas Müller is the Chief Financial Officer.
"""
DEAL = "live-check"
QUESTION = "What was Q3 2024 revenue?"


@dataclass
class Outcome:
    item: str
    check: str
    result: str  # "pass", "FAIL", "skip" or "manual"
    detail: str = ""


Check = Callable[[], Awaitable[str]]


def say(label: str, **figures: object) -> None:
    shown = ", ".join(f"{k}={v}" for k, v in figures.items())
    print(f"  {label:<22} {shown}", flush=True)


async def run_check(item: str, name: str, check: Check) -> Outcome:
    print(f"[{item}] {name}", flush=True)
    started = time.perf_counter()
    try:
        detail = await check()
    except AssertionError as exc:
        return Outcome(item, name, "FAIL", str(exc))
    except Exception as exc:
        traceback.print_exc()
        return Outcome(item, name, "FAIL", f"{type(exc).__name__}: {exc}")
    return Outcome(item, name, "pass", f"{detail} ({time.perf_counter() - started:.1f} s)")


# ---------------------------------------------------------------- Claude


async def claude_checks(home: Path) -> list[Outcome]:
    from manda.agent.context import AgentContext, Limits
    from manda.agent.prompts import CONTINUE_MESSAGE, SYSTEM, reprompt_message
    from manda.agent.service import AnswerService
    from manda.agent.tools import TOOL_SPECS
    from manda.app import Manda
    from manda.config import Settings
    from manda.ingest.extract.batches import SqliteBatchLedger
    from manda.ingest.extract.claude import ClaudeExtractor
    from manda.llm.calls import ANSWER, EXTRACTION, SLIDE, CallKind, traits_of
    from manda.llm.claude import ClaudeChatModel
    from manda.llm.port import ChatMessage, ToolResult

    settings = Settings(MANDA_HOME=home)
    note = home / "Falcon_Deal_Notes.md"
    note.write_text(NOTE, encoding="utf-8")
    outcomes: list[Outcome] = []
    async with Manda(settings) as app:
        client = app.anthropic
        assert client is not None
        model_id = settings.claude_model
        chat = ClaudeChatModel(client=client, model=model_id)

        async def model_by_id() -> str:
            info = await client.models.retrieve(model_id)
            traits = traits_of(model_id)
            caps = getattr(info, "capabilities", None)
            thinking = getattr(caps, "thinking", None) if caps else None
            types = getattr(thinking, "types", None) if thinking else None
            accepted = {name for name in ("adaptive", "between_tools", "disabled", "enabled")
                        if types is not None
                        and getattr(getattr(types, name, None), "supported", False)}
            if accepted:
                assert traits.thinking <= accepted, (
                    f"Manda sends thinking types {sorted(traits.thinking)} to {model_id}, which "
                    f"accepts {sorted(accepted)}: update manda.llm.calls.MODEL_TRAITS")
            say("model:", id=info.id, lifecycle=getattr(info, "lifecycle", "?"),
                thinking=sorted(accepted) or "not reported")
            return f"{info.id} ({getattr(info, 'lifecycle', '?')})"

        async def each_kind_of_call() -> str:
            seen = []
            for kind, output in ((ANSWER, 256), (SLIDE, 256), (EXTRACTION, 256)):
                request = {"model": model_id, "max_tokens": kind.max_tokens(output),
                           **kind.request_fields(model_id),
                           "messages": [{"role": "user", "content": "Say OK."}]}
                async with client.messages.stream(**request) as stream:
                    message = await stream.get_final_message()
                thought = sum(1 for b in message.content if b.type == "thinking")
                say(f"{kind.name}:", fields=kind.request_fields(model_id),
                    stop=message.stop_reason, output_tokens=message.usage.output_tokens,
                    thinking_blocks=thought)
                seen.append(f"{kind.name} {message.stop_reason}")
            return "; ".join(seen)

        async def reprompt_keeps_pairs() -> str:
            messages = [ChatMessage(role="user", text=(
                "Use query_knowledge_base to find Q3 2024 revenue of deal live-check, then "
                "answer in one sentence with its source."))]
            turns = 0
            for reprompted in (False, True):
                for _ in range(3):  # a turn may call tools; every call is answered at once
                    turn = await chat.respond(SYSTEM, messages, TOOL_SPECS, max_tokens=1024,
                                              call=ANSWER)
                    turns += 1
                    if not turn.tool_calls:
                        break
                    messages.append(turn.as_message())
                    messages.append(ChatMessage(role="user", tool_results=[
                        ToolResult(c.id, "Revenue for Q3 2024 was EUR 5.2 million (source: "
                                         "Falcon_Deal_Notes.md, p.1).") for c in turn.tool_calls]))
                messages.append(turn.as_message())
                if not reprompted:
                    messages.append(ChatMessage(role="user", text=reprompt_message(
                        ["The number EUR 9.9 million does not appear in any cited excerpt."])))
            say("tool loop:", turns=turns, last=turn.text[:80])
            return f"{turns} turns accepted, every tool_use answered in the next message"

        async def a_cut_reply_continues() -> str:
            plain = CallKind("live check", thinks=False, effort="low", thinking_tokens=0)
            messages = [ChatMessage(role="user", text="Count from one to forty in words.")]
            turn = await chat.respond("Answer plainly.", messages, [], max_tokens=16, call=plain)
            assert turn.truncated, f"a 16-token cap was not reached ({turn.stop_reason})"
            messages += [turn.as_cut_message(), ChatMessage(role="user", text=CONTINUE_MESSAGE)]
            rest = await chat.respond("Answer plainly.", messages, [], max_tokens=256,
                                      call=plain)
            say("continued:", cut=repr(turn.written[-30:]), then=repr(rest.written[:40]))
            return f"cut at {turn.usage.output_tokens} tokens, continued ({rest.stop_reason})"

        async def a_refused_request_answers_offline() -> str:
            report = await app.ingest.ingest(DEAL, [note])
            assert report.ingested, "the note was not ingested"
            wrong = ClaudeChatModel(client=client, model="claude-live-check-no-such-model")
            service = AnswerService(AgentContext(graph=app.graph, search=app.search,
                                                 memory=app.memory, model=wrong))
            answer = await service.ask(DEAL, QUESTION)
            assert answer.model == "offline", answer.model
            assert answer.notices and answer.notices[0].startswith("Claude rejected the request"), (
                answer.notices)
            say("offline:", notice=answer.notices[0][:90])
            return answer.notices[0]

        async def a_slow_model_answers_offline() -> str:
            service = AnswerService(AgentContext(graph=app.graph, search=app.search,
                                                 memory=app.memory, model=chat,
                                                 limits=Limits(model_seconds=0.05)))
            answer = await service.ask(DEAL, QUESTION)
            assert answer.model == "offline" and "took longer" in answer.notices[0], answer.notices
            return answer.notices[0]

        async def extraction_resumes() -> str:
            ledger = SqliteBatchLedger(home / "live-batches.db")
            documents = await app.graph.list_documents(DEAL)
            document = documents[0]
            from manda.ingest.parsers import parse_file

            parsed = parse_file(note)
            chunks = await app.graph.list_chunks(DEAL, document.id)
            first = ClaudeExtractor(client=client, model=model_id, ledger=ledger)
            found = await first.extract(document, parsed, chunks)
            again = ClaudeExtractor(client=client, model=model_id, ledger=ledger)
            kept = await again.extract(document, parsed, chunks)
            assert again.last.requests == 0 and again.last.resumed >= 1, again.last
            assert len(kept) == len(found)
            say("extraction:", findings=len(found), first_requests=first.last.requests,
                second_requests=again.last.requests, resumed=again.last.resumed,
                output_tokens=first.usage.output_tokens)
            return f"{len(found)} findings; asked again: 0 requests, {again.last.resumed} resumed"

        for item, name, check in (
            ("3", "the configured model by id, and the thinking it accepts", model_by_id),
            ("3", "answer, slide and extraction calls with their thinking and effort",
             each_kind_of_call),
            ("1", "a tool loop and a re-prompt keep every tool_use paired", reprompt_keeps_pairs),
            ("3", "a reply cut at its cap is continued", a_cut_reply_continues),
            ("2", "a refused request (unknown model) is answered from the findings",
             a_refused_request_answers_offline),
            ("3", "a model slower than its time budget is answered from the findings",
             a_slow_model_answers_offline),
            ("5", "an extraction asked again resumes from its finished batches",
             extraction_resumes),
        ):
            outcomes.append(await run_check(item, name, check))
    outcomes.append(Outcome(
        "4", "an overloaded_error inside a stream is retried once", "skip",
        "cannot be provoked against the real API; the retry is tested against the local "
        "Messages API (tests/agent/test_claude_fallbacks.py)"))
    return outcomes


# ---------------------------------------------------------------- Slack


async def slack_checks() -> list[Outcome]:
    from slack_sdk.web.async_client import AsyncWebClient

    channel = os.environ["MANDA_LIVE_CHANNEL"]
    user = os.environ["MANDA_LIVE_USER"]
    client = AsyncWebClient(token=os.environ["SLACK_BOT_TOKEN"],
                            base_url=os.environ.get("SLACK_API_URL") or "https://slack.com/api/")

    async def status_and_stream() -> str:
        root = await client.chat_postMessage(channel=channel, text="Manda live check: a thread")
        thread = root["ts"]
        await client.assistant_threads_setStatus(channel_id=channel, thread_ts=thread,
                                                 status="is checking the live contract…")
        team = (await client.users_info(user=user))["user"]["team_id"]
        started = await client.chat_startStream(channel=channel, thread_ts=thread,
                                                markdown_text="Streaming to ",
                                                recipient_user_id=user, recipient_team_id=team)
        ts = started["ts"]
        await client.chat_appendStream(channel=channel, ts=ts,
                                       markdown_text=f"<@{user}> of team {team}.")
        await client.chat_stopStream(channel=channel, ts=ts, blocks=[
            {"type": "context", "elements": [{"type": "mrkdwn", "text": "stopped with blocks"}]}])
        say("stream:", thread=thread, message=ts, recipient_team=team)
        return f"status, startStream (team {team}), appendStream, stopStream accepted"

    outcomes = [await run_check("7", "working status and a stream to the member's own team",
                                status_and_stream)]
    outcomes.append(Outcome(
        "6", "a modal opens within the ack path", "manual",
        "needs a person's click: under an answer with a pending finding, click Reject… — the "
        "modal must show “Loading…” at once, then the form (views.open then views.update)"))
    return outcomes


# ---------------------------------------------------------------- the live eval

EVAL_TOKENS = 200_000


async def live_eval(home: Path) -> str:
    """`manda eval --live` within a token budget: a measurement, passed when it ran."""
    import json
    import subprocess

    budget = int(os.environ.get("MANDA_LIVE_EVAL_TOKENS") or EVAL_TOKENS)
    report = home / "live-eval.md"
    manda = Path(sys.executable).parent / "manda"
    command = [str(manda), "eval", "--live", "--token-budget", str(budget),
               "--report", str(report)]
    env = {**os.environ, "MANDA_HOME": str(home / "eval-home")}
    started = time.perf_counter()
    done = await asyncio.to_thread(subprocess.run, command, env=env, capture_output=True,
                                   text=True, check=False)
    seconds = time.perf_counter() - started
    as_json = report.with_suffix(".json")
    tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
    assert as_json.is_file(), f"exit {done.returncode}, no report: {' | '.join(tail)}"
    data = json.loads(as_json.read_text(encoding="utf-8"))
    for case in data["cases"]:
        tokens = sum(t["input_tokens"] + t["output_tokens"] for t in case["turns"])
        mark = "skip" if case["skipped"] else ("right" if case["passed"] else "WRONG")
        split = "held-out" if case["held_out"] else "dev"
        print(f"  {case['id']:<12} {case['deal']:<12} {split:<8} {mark:<5} {tokens:>7} tokens")
    for deal, row in data["by_deal"].items():
        say(f"room {deal}:", right=f"{row['cases_passed']}/{row['cases_run']}",
            not_run=row["cases_skipped"], tokens=row["tokens"])
    if data["stopped"]:
        print(f"  stopped: {data['stopped']}")
    return (f"dev {data['dev']['score']:.1%}, held-out {data['held_out']['score']:.1%}, "
            f"{data['tokens']['input'] + data['tokens']['output']} tokens of {budget}, "
            f"{seconds:.0f} s; report {report} (kept only while the run lasts)")


# ---------------------------------------------------------------- main


async def main() -> int:
    outcomes: list[Outcome] = []
    ran = False
    with tempfile.TemporaryDirectory(prefix="manda-live-") as tmp:
        if os.environ.get("ANTHROPIC_API_KEY"):
            ran = True
            outcomes += await claude_checks(Path(tmp))
            outcomes.append(await run_check("eval", "manda eval --live",
                                            lambda: live_eval(Path(tmp))))
        else:
            print("ANTHROPIC_API_KEY is not set: the Claude checks (items 1-5) and the live "
                  "eval (`manda eval --live --token-budget N`) are skipped.", file=sys.stderr)
            outcomes.append(Outcome("1-5", "Claude", "skip", "ANTHROPIC_API_KEY is not set"))
            outcomes.append(Outcome("eval", "manda eval --live", "skip",
                                    "ANTHROPIC_API_KEY is not set"))
    slack_vars = ("SLACK_BOT_TOKEN", "MANDA_LIVE_CHANNEL", "MANDA_LIVE_USER")
    missing = [name for name in slack_vars if not os.environ.get(name)]
    if missing:
        print(f"{', '.join(missing)} not set: the Slack checks (items 6-7) are skipped.",
              file=sys.stderr)
        outcomes.append(Outcome("6-7", "Slack", "skip", f"{', '.join(missing)} not set"))
    else:
        ran = True
        outcomes += await slack_checks()
    print("\nitem  result  check")
    for o in outcomes:
        print(f"{o.item:<5} {o.result:<7} {o.check}" + (f" — {o.detail}" if o.detail else ""))
    if not ran:
        print("Nothing was checked: export the keys of the services as deployed "
              "(ANTHROPIC_API_KEY; SLACK_BOT_TOKEN with MANDA_LIVE_CHANNEL and MANDA_LIVE_USER) "
              "and run it again.", file=sys.stderr)
        return 2
    return 1 if any(o.result == "FAIL" for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
