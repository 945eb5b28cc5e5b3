"""Pure Block Kit rendering: domain objects in, Slack blocks out; no I/O anywhere in here."""
