"""Ingest: read conversations (loaders), then write them as episodes, chunks, entities and facts."""

from .load_checks import LoadReport
from .loaders import load, load_jsonl
from .locomo_loader import load_locomo

__all__ = ["LoadReport", "load", "load_jsonl", "load_locomo"]
