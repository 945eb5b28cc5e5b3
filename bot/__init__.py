"""The Slack adapter: Bolt app, listeners, Block Kit rendering. The only package that knows Slack."""
