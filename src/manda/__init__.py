"""Manda: a due-diligence analyst that answers from a deal's data room, with a source on every claim."""

__version__ = "0.1.0"
