"""The Slack adapter: Bolt app, listeners, Block Kit rendering. Nothing else knows Slack."""
