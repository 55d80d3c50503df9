"""Graph stores: one protocol, two thin adapters (Kuzu embedded, Neo4j over Bolt)."""

from .base import GraphStore, Runner
from .factory import StoreURL, default_store_url, open_store, parse_store_url

__all__ = ["GraphStore", "Runner", "StoreURL", "default_store_url", "open_store", "parse_store_url"]
