"""Workflow modes of a thread (chat, cim, irl): ids, checkpointed state, step by step."""
