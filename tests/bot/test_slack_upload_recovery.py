"""After a crash mid-upload, the restarted bot tells the thread the files were not ingested."""

from __future__ import annotations

import json
import subprocess
import sys

from slackworld import SlackWorld

from bot.inflight import InFlightUploads, recover_uploads


async def test_an_interrupted_upload_message_is_finished_on_restart(world: SlackWorld) -> None:
    ws = world.fake.workspace
    parent = await world.fake.say(world.alice, world.deal, "Q3 pack")
    progress = await world.bot.bolt.client.chat_postMessage(
        channel=world.deal.id, thread_ts=parent.ts, text="⏳ Ingesting into targetco: 1/2"
    )
    uploads = InFlightUploads(world.manda.settings.home_dir)
    live = uploads.begin(world.deal.id, progress["ts"], "targetco", ["a.pdf"])  # ours: running
    dead = uploads.begin(world.deal.id, progress["ts"], "targetco", ["Q3.pdf", "Q3.xlsx"])
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    record = json.loads(dead.read_text())
    dead.write_text(json.dumps({**record, "pid": int(gone.stdout)}))  # its process has exited

    assert await recover_uploads(uploads, world.bot.bolt.client) == 1
    message = ws.find(world.deal.id, progress["ts"])
    assert message is not None
    text = message.all_text()
    assert "Manda stopped while ingesting `Q3.pdf`, `Q3.xlsx` into *targetco*" in text
    assert "Drop the files again" in text
    assert not dead.exists() and live.exists()
    assert await recover_uploads(uploads, world.bot.bolt.client) == 0
