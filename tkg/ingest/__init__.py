"""Ingest: read conversations (loaders), then write them as episodes, chunks, entities and facts."""

from .loaders import LoadReport, load, load_jsonl, load_locomo

__all__ = ["LoadReport", "load", "load_jsonl", "load_locomo"]
