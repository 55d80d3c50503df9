"""A loopback HTTP server that answers the OpenAI and Anthropic SDKs with scripted exchanges.

The only fake in the model-stage tests: the real ``openai`` and ``anthropic`` clients connect
to it over TCP (``base_url``), so their retries, timeouts, error types and parsing all run.
Responses are served in order; each is ``{"status", "json" | "body", "headers", "delay"}``.
A request past the script gets a 400 whose message says so, and the test sees it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def openai_json(content: str, tokens_in: int = 300, tokens_out: int = 40) -> dict[str, Any]:
    """A chat.completion in OpenAI's wire format whose message is ``content``."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1764600000,
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": tokens_in,
            "completion_tokens": tokens_out,
            "total_tokens": tokens_in + tokens_out,
        },
    }


def anthropic_tool(
    name: str, arguments: dict[str, Any], tokens_in: int = 300, tokens_out: int = 40
) -> dict[str, Any]:
    """A Messages API response in Anthropic's wire format: one forced tool call."""
    return {
        "id": "msg_test", "type": "message", "role": "assistant", "model": "claude-haiku-4-5-20251001",
        "content": [{"type": "tool_use", "id": "toolu_test", "name": name, "input": arguments}],
        "stop_reason": "tool_use", "stop_sequence": None,
        "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out},
    }


def error_json(status: int, message: str) -> dict[str, Any]:
    kind = {429: "rate_limit_error", 500: "api_error"}.get(status, "invalid_request_error")
    return {"status": status, "json": {"type": "error", "error": {"type": kind, "message": message}},
            "headers": {"retry-after-ms": "5", "retry-after": "0"}}


class Script:
    """The exchanges to serve, and the requests seen."""

    def __init__(self, responses: list[dict[str, Any]]) -> None:
        self.responses = list(responses)
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def next(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            self.requests.append({"path": path, "json": body})
            if not self.responses:
                return {
                    "status": 400,
                    "json": {
                        "error": {
                            "message": f"unscripted request #{len(self.requests)} to {path}",
                            "type": "invalid_request_error",
                        }
                    },
                }
            return self.responses.pop(0)


@contextmanager
def serve(responses: list[dict[str, Any]]) -> Iterator[tuple[str, Script]]:
    """Run the server on a free loopback port; yields (base URL, script)."""
    script = Script(responses)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b"{}"
            reply = script.next(self.path, json.loads(raw or b"{}"))
            if reply.get("delay"):
                time.sleep(float(reply["delay"]))
            payload = reply["body"].encode() if "body" in reply else json.dumps(reply["json"]).encode()
            try:
                self.send_response(int(reply.get("status", 200)))
                self.send_header("content-type", "application/json")
                for key, value in (reply.get("headers") or {}).items():
                    self.send_header(key, value)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
                pass

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", script
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
