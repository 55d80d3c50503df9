"""Replays recorded provider exchanges through an HTTP mock transport.

Each JSON file in tests/data/recorded holds ``exchanges``: a request to expect (method, path,
``json`` fields that must be equal, strings the body must ``contain``, keys that must be
``absent``) and the response the provider gave. Requests are served in order; a request
that does not match gets an HTTP 400 whose message says why, so the test fails with it.
This transport is the only fake in the provider tests: the SDKs, their retry and error
handling, and tkg's code all run for real.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2

HERE = Path(__file__).resolve().parent / "data" / "recorded"


class Replay:
    def __init__(self, name: str, http: Any = httpx2) -> None:
        self.name = name
        self.exchanges: list[dict[str, Any]] = json.loads((HERE / name).read_text())["exchanges"]
        self.requests: list[Any] = []
        self.bodies: list[dict[str, Any]] = []
        self.mismatches: list[str] = []
        self.http = http

    def _mismatch(self, reason: str) -> Any:
        self.mismatches.append(reason)
        body = {"error": {"message": f"replay mismatch: {reason}", "type": "invalid_request_error"}}
        return self.http.Response(400, json=body)

    def handler(self, request: Any) -> Any:
        index = len(self.requests)
        body = json.loads(request.content or b"{}")
        self.requests.append(request)
        self.bodies.append(body)
        if index >= len(self.exchanges):
            return self._mismatch(f"{self.name}: unexpected request #{index + 1} to {request.url.path}")
        want = self.exchanges[index]["request"]
        if request.method != want["method"] or request.url.path != want["path"]:
            return self._mismatch(f"{self.name}: got {request.method} {request.url.path}")
        for key, value in want.get("json", {}).items():
            if body.get(key) != value:
                return self._mismatch(f"{self.name}: {key} is {body.get(key)!r}, recorded {value!r}")
        text = json.dumps(body, ensure_ascii=False)
        for needle in want.get("contains", []):
            if needle not in text:
                return self._mismatch(f"{self.name}: request does not contain {needle!r}")
        for key in want.get("absent", []):
            if key in body:
                return self._mismatch(f"{self.name}: request has {key!r}")
        recorded = self.exchanges[index]["response"]
        return self.http.Response(
            recorded["status"], headers=recorded.get("headers", {}), json=recorded["json"]
        )

    def client(self) -> Any:
        """An HTTP client for the SDK's ``http_client=``."""
        return self.http.Client(transport=self.http.MockTransport(self.handler))

    def assert_all_served(self) -> None:
        assert not self.mismatches, self.mismatches
        assert len(self.requests) == len(self.exchanges), (
            f"{len(self.requests)} of {len(self.exchanges)} served"
        )
