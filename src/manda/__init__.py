"""Manda: a due-diligence analyst answering from a deal's data room, a source on every claim."""

__version__ = "0.1.0"
