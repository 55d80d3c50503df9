"""The OpenAI and Anthropic providers: free text (`complete`) or one structured call (`call`).

tkg runs offline by default, with no provider and no network. A provider is opt-in per
stage (tkg/llm/spec.py); `call` sends one `Request` (system + user message, and the JSON
schema the output must follow: OpenAI's ``response_format``, Anthropic's forced tool use)
and returns a `Reply` with the provider's token counts.

The SDK clients are built lazily with bounded timeouts and retries; tests inject an
``http_client`` whose transport replays recorded responses. API keys come from the
environment and are scrubbed from every error message.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from tkg.errors import ConfigError, ProviderError

DEFAULT_TIMEOUT = 30.0  # seconds, per request
DEFAULT_RETRIES = 2  # on top of the first attempt; the SDKs back off between them
_KEY_PATTERN = re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}")  # OpenAI and Anthropic key shapes


@dataclass(frozen=True)
class Request:
    """One prompt: exactly what a model sees (system, user message, the output's JSON schema)."""

    stage: str
    system: str
    user: str
    schema_name: str = ""
    schema: dict[str, Any] | None = field(default=None, hash=False)  # None: free text
    max_tokens: int = 512

    def payload(self) -> dict[str, Any]:
        """The prompt as data: what record files hold and what the hash covers."""
        out: dict[str, Any] = {"stage": self.stage, "system": self.system, "user": self.user}
        if self.schema is not None:
            out["output_schema"] = {"name": self.schema_name, "schema": self.schema}
        return out

    def key(self) -> str:
        """A hash of (stage, prompt, schema): the name of its record file."""
        text = json.dumps(self.payload(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Reply:
    """A model's output (JSON text when the request had a schema) and what it cost."""

    text: str
    tokens_in: int
    tokens_out: int
    model: str
    cached: bool = False
    estimated: bool = False  # tokens estimated from characters (record/replay), not counted by a provider


def estimate_tokens(text: str) -> int:
    """About 4 characters a token for English (OpenAI's rule of thumb), at least 1 for any text."""
    return (len(text) + 3) // 4 if text else 0


@runtime_checkable
class Backend(Protocol):
    """What a stage needs from a model: one call per request."""

    @property
    def name(self) -> str: ...

    def call(self, request: Request) -> Reply: ...


@runtime_checkable
class LLMProvider(Protocol):
    """What procedures need from a model: one deterministic completion."""

    @property
    def name(self) -> str: ...

    def complete(self, system: str, prompt: str, *, max_tokens: int = 512) -> str: ...


def redact_secrets(message: str, *secrets: str | None) -> str:
    """Remove API keys from a message before it reaches a log or an exception.

    >>> redact_secrets("bad key sk-abc123456789", "sk-abc123456789")
    'bad key ***'
    """
    for secret in secrets:
        if secret:
            message = message.replace(secret, "***")
    return _KEY_PATTERN.sub("***", message)


def _env_key(var: str, provider: str) -> str:
    key = os.environ.get(var, "").strip()
    if not key:
        raise ProviderError(f"{provider} needs an API key: set {var} (or pass a configured client)")
    return key


def _sdk_error(provider: str, model: str, exc: Exception, key: str | None) -> ProviderError:
    """A readable ProviderError from an SDK exception, without the key."""
    status = getattr(exc, "status_code", None)
    detail = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    head = f"{provider} {model} failed"
    if status is not None:
        head += f" with HTTP {status}"
    return ProviderError(redact_secrets(f"{head}: {detail}", key))


@dataclass(frozen=True)
class _ClientOptions:
    """How to build an SDK client: key, bounded timeout and retries, test transport, server."""

    http_client: Any | None = None
    api_key: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    max_retries: int = DEFAULT_RETRIES
    base_url: str | None = None

    def sdk_args(self) -> dict[str, Any]:
        """The keyword arguments both SDK clients take, the key aside."""
        return {"timeout": self.timeout, "max_retries": self.max_retries,
                "http_client": self.http_client, "base_url": self.base_url}


class _SDKProvider:
    """What the OpenAI and Anthropic providers share: the name, the key and a lazily built client."""

    vendor = ""

    def __init__(self, model: str, client: Any | None = None, **options: Any) -> None:
        opts = _ClientOptions(**options)
        self.model = model
        self.name = f"{self.vendor}:{model}" + (f"@{opts.base_url}" if opts.base_url else "")
        self._key: str | None = None
        self.client = client if client is not None else self._connect(opts)

    def _connect(self, options: _ClientOptions) -> Any:
        raise NotImplementedError


class OpenAIProvider(_SDKProvider):
    """Chat completions through the official ``openai`` package, temperature 0.

    >>> provider = OpenAIProvider("gpt-4o-mini")          # doctest: +SKIP
    >>> provider.complete("Be brief.", "Say hi")          # doctest: +SKIP
    'Hi!'
    """

    vendor = "openai"

    def __init__(
        self, model: str = "gpt-4o-mini", client: Any | None = None, *,
        temperature: float | None = 0.0, **options: Any,
    ) -> None:
        self.temperature = temperature  # None leaves it out, for models that reject it
        super().__init__(model, client, **options)

    def _connect(self, options: _ClientOptions) -> Any:
        import openai

        # a local server (Ollama, vLLM, llama.cpp, LM Studio) needs no key
        local = options.base_url is not None and not os.environ.get("OPENAI_API_KEY")
        self._key = options.api_key or ("local" if local else _env_key("OPENAI_API_KEY", "OpenAI"))
        return openai.OpenAI(api_key=self._key, **options.sdk_args())

    def complete(self, system: str, prompt: str, *, max_tokens: int = 512) -> str:
        return self.call(Request("complete", system, prompt, max_tokens=max_tokens)).text

    def call(self, request: Request) -> Reply:
        """One request; with a schema, the output is constrained by ``response_format`` (strict)."""
        import openai

        params: dict[str, Any] = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": request.system},
                {"role": "user", "content": request.user},
            ],
            "max_completion_tokens": request.max_tokens,
        }
        if self.temperature is not None:
            params["temperature"] = self.temperature
        if request.schema is not None:
            params["response_format"] = {"type": "json_schema", "json_schema": {
                "name": request.schema_name, "schema": request.schema, "strict": True}}
        try:
            response = self.client.chat.completions.create(**params)
        except openai.OpenAIError as exc:
            raise _sdk_error("OpenAI", self.model, exc, self._key) from None
        choices = getattr(response, "choices", None) or []
        text = (choices[0].message.content or "") if choices else ""
        if not text.strip():
            reason = choices[0].finish_reason if choices else "no choices"
            raise ProviderError(f"OpenAI {self.model} returned no text (finish_reason: {reason})")
        usage = getattr(response, "usage", None)
        return Reply(str(text).strip(), int(getattr(usage, "prompt_tokens", 0) or 0),
                     int(getattr(usage, "completion_tokens", 0) or 0), self.name)


class AnthropicProvider(_SDKProvider):
    """The Messages API through the official ``anthropic`` package.

    Anthropic SDK 2.x speaks an API version without sampling parameters, so no
    temperature is sent; the prompts below ask for a fixed output format instead.

    >>> provider = AnthropicProvider("claude-haiku-4-5")  # doctest: +SKIP
    >>> provider.complete("Be brief.", "Say hi")          # doctest: +SKIP
    'Hi!'
    """

    vendor = "anthropic"

    def __init__(self, model: str = "claude-haiku-4-5", client: Any | None = None, **options: Any) -> None:
        super().__init__(model, client, **options)

    def _connect(self, options: _ClientOptions) -> Any:
        import anthropic

        self._key = options.api_key or _env_key("ANTHROPIC_API_KEY", "Anthropic")
        return anthropic.Anthropic(api_key=self._key, **options.sdk_args())

    def complete(self, system: str, prompt: str, *, max_tokens: int = 512) -> str:
        import anthropic

        try:
            response = self.client.messages.create(
                model=self.model,
                system=system,
                messages=[{"role": "user", "content": prompt}],
                max_tokens=max_tokens,
            )
        except anthropic.AnthropicError as exc:
            raise _sdk_error("Anthropic", self.model, exc, self._key) from None
        blocks = getattr(response, "content", None) or []
        text = "".join(getattr(b, "text", "") for b in blocks if getattr(b, "type", "") == "text")
        if not text.strip():
            reason = getattr(response, "stop_reason", None)
            raise ProviderError(f"Anthropic {self.model} returned no text (stop_reason: {reason})")
        return text.strip()

    def call(self, request: Request) -> Reply:
        """One request; with a schema, the output is the input of a forced tool call."""
        import anthropic

        params: dict[str, Any] = {
            "model": self.model, "system": request.system, "max_tokens": request.max_tokens,
            "messages": [{"role": "user", "content": request.user}],
        }
        if request.schema is not None:
            params["tools"] = [{"name": request.schema_name, "description": "Report the result.",
                                "input_schema": request.schema}]
            params["tool_choice"] = {"type": "tool", "name": request.schema_name}
        try:
            response = self.client.messages.create(**params)
        except anthropic.AnthropicError as exc:
            raise _sdk_error("Anthropic", self.model, exc, self._key) from None
        blocks = getattr(response, "content", None) or []
        if request.schema is not None:
            inputs = [getattr(b, "input", None) for b in blocks if getattr(b, "type", "") == "tool_use"]
            text = json.dumps(inputs[0], ensure_ascii=False) if inputs else ""
        else:
            text = "".join(getattr(b, "text", "") for b in blocks if getattr(b, "type", "") == "text")
        if not text.strip():
            reason = getattr(response, "stop_reason", None)
            raise ProviderError(f"Anthropic {self.model} returned no output (stop_reason: {reason})")
        usage = getattr(response, "usage", None)
        return Reply(text.strip(), int(getattr(usage, "input_tokens", 0) or 0),
                     int(getattr(usage, "output_tokens", 0) or 0), self.name)


def get_provider(spec: str | None = None) -> LLMProvider | None:
    """The provider named by ``spec``, else by ``TKG_LLM``, else None (offline, extractive).

    >>> get_provider(None) is None  # with TKG_LLM unset
    True
    >>> get_provider("openai:gpt-4o-mini")  # doctest: +SKIP
    """
    spec = (spec if spec is not None else os.environ.get("TKG_LLM", "")).strip()
    if not spec or spec.lower() in {"none", "off", "0"}:
        return None
    kind, _, model = spec.partition(":")
    kind = kind.strip().lower()
    model, _, base_url = model.strip().partition("@")
    if kind == "openai":
        return OpenAIProvider(model or "gpt-4o-mini", base_url=base_url or None)
    if kind == "anthropic":
        return AnthropicProvider(model or "claude-haiku-4-5")
    raise ConfigError(
        f"unknown LLM provider {spec!r}: use 'openai:MODEL' or 'anthropic:MODEL' (or leave TKG_LLM unset)"
    )
