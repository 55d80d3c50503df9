"""What the Kuzu driver is handed and what it raises, translated.

Parameters go in as Kuzu binds them fastest and right: timestamps as naive UTC, stored embeddings
as text the writing statements cast, a vector's compact copy (kept by Neo4j only) as null.
Prepared statements are cached by their query and the parameter types Kuzu binds at prepare time
(`signature`). The driver raises bare ``RuntimeError``; `translate` turns one into the TkgError
hierarchy.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..errors import ReadOnlyViolation, StoreError, StoreUnavailable
from ..models import F32Bytes, Vector
from .base import to_utc

_VECTOR_FORMATS: dict[int, str] = {}


def vector_text(vector: Vector) -> str:
    """``[x,y,...]`` with 9 significant digits, which gives back every float32 exactly."""
    fmt = _VECTOR_FORMATS.get(len(vector))
    if fmt is None:
        fmt = _VECTOR_FORMATS.setdefault(len(vector), "[" + ",".join(["%.9g"] * len(vector)) + "]")
    return fmt % tuple(vector)


def param(value: Any) -> Any:
    """Kuzu stores TIMESTAMP without zone: hand it naive UTC. A stored embedding (``Vector``) goes
    as text, which the writing statements cast: Kuzu binds that faster than a list parameter of
    floats (tools/kuzu_vector_param_cost.py; BENCHMARKS.md)."""
    if isinstance(value, Vector):
        return vector_text(value)
    if isinstance(value, F32Bytes):  # Kuzu keeps no compact copy of a vector (it binds no bytes either)
        return None
    if isinstance(value, datetime):
        return to_utc(value).replace(tzinfo=None)
    if isinstance(value, list):
        if value and type(value[0]) is float:
            return value  # an embedding: Kuzu lists are of one type, so nothing inside to convert
        return [param(v) for v in value]
    if isinstance(value, dict):
        return {k: param(v) for k, v in value.items()}
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return value.tolist()
    return value


def signature(values: dict[str, Any]) -> str:
    """The parameter types Kuzu binds at prepare time (nulls and empty lists bind differently)."""

    def sig(v: Any) -> str:
        if isinstance(v, list):
            if v and isinstance(v[0], dict):  # rows: a field null in the first row may not be in the rest
                fields: dict[str, str] = {}
                for row in v:
                    for k, x in row.items():
                        if x is not None:
                            fields[k] = sig(x)
                        else:
                            fields.setdefault(k, "NoneType")
                return "[{" + ",".join(f"{k}:{t}" for k, t in sorted(fields.items())) + "}]"
            return "[" + (sig(v[0]) if v else "") + "]"
        if isinstance(v, dict):
            return "{" + ",".join(f"{k}:{sig(x)}" for k, x in sorted(v.items())) + "}"
        return type(v).__name__

    return ";".join(f"{k}={sig(v)}" for k, v in sorted(values.items()))


def translate(exc: Exception, path: str) -> StoreError:
    text = str(exc)
    low = text.lower()
    if "lock" in low and ("could not set lock" in low or "lock on file" in low or "concurrency" in low):
        return StoreUnavailable(
            f"the Kuzu database at {path} is locked by another process; close it there or use another path"
        )
    if "read only" in low or "read-only" in low or "readonly" in low:
        return ReadOnlyViolation(f"write refused in a read-only transaction: {text}")
    return StoreError(f"Kuzu: {text}")
