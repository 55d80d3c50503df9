"""Optional LLM providers, and the prompts that let a model rank or phrase evidence.

tkg answers extractively by default, with no provider and no network. A provider is
opt-in (``TKG_LLM=openai:gpt-4o-mini``) and only ever sees evidence tkg already holds:
it may reorder passages or phrase an answer from them, never add a fact to the graph.

The SDK clients are built lazily with bounded timeouts and retries; tests inject an
``http_client`` whose transport replays recorded responses. API keys come from the
environment and are scrubbed from every error message.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from tkg.errors import ConfigError, ProviderError
from tkg.models import NO_INFORMATION

DEFAULT_TIMEOUT = 30.0  # seconds, per request
DEFAULT_RETRIES = 2  # on top of the first attempt; the SDKs back off between them
_KEY_PATTERN = re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}")  # OpenAI and Anthropic key shapes


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


class OpenAIProvider:
    """Chat completions through the official ``openai`` package, temperature 0.

    >>> provider = OpenAIProvider("gpt-4o-mini")          # doctest: +SKIP
    >>> provider.complete("Be brief.", "Say hi")          # doctest: +SKIP
    'Hi!'
    """

    def __init__(
        self,
        model: str = "gpt-4o-mini",
        client: Any | None = None,
        *,
        http_client: Any | None = None,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_RETRIES,
        temperature: float | None = 0.0,
    ) -> None:
        self.model = model
        self.name = f"openai:{model}"
        self.temperature = temperature  # None leaves it out, for models that reject it
        self._key: str | None = None
        if client is None:
            import openai

            self._key = api_key or _env_key("OPENAI_API_KEY", "OpenAI")
            client = openai.OpenAI(
                api_key=self._key, timeout=timeout, max_retries=max_retries, http_client=http_client
            )
        self.client = client

    def complete(self, system: str, prompt: str, *, max_tokens: int = 512) -> str:
        import openai

        params: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": prompt}],
            "max_completion_tokens": max_tokens,
        }
        if self.temperature is not None:
            params["temperature"] = self.temperature
        try:
            response = self.client.chat.completions.create(**params)
        except openai.OpenAIError as exc:
            raise _sdk_error("OpenAI", self.model, exc, self._key) from None
        choices = getattr(response, "choices", None) or []
        text = (choices[0].message.content or "") if choices else ""
        if not text.strip():
            reason = choices[0].finish_reason if choices else "no choices"
            raise ProviderError(f"OpenAI {self.model} returned no text (finish_reason: {reason})")
        return str(text).strip()


class AnthropicProvider:
    """The Messages API through the official ``anthropic`` package.

    Anthropic SDK 2.x speaks an API version without sampling parameters, so no
    temperature is sent; the prompts below ask for a fixed output format instead.

    >>> provider = AnthropicProvider("claude-haiku-4-5")  # doctest: +SKIP
    >>> provider.complete("Be brief.", "Say hi")          # doctest: +SKIP
    'Hi!'
    """

    def __init__(
        self,
        model: str = "claude-haiku-4-5",
        client: Any | None = None,
        *,
        http_client: Any | None = None,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_RETRIES,
    ) -> None:
        self.model = model
        self.name = f"anthropic:{model}"
        self._key: str | None = None
        if client is None:
            import anthropic

            self._key = api_key or _env_key("ANTHROPIC_API_KEY", "Anthropic")
            client = anthropic.Anthropic(
                api_key=self._key, timeout=timeout, max_retries=max_retries, http_client=http_client
            )
        self.client = client

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
    model = model.strip()
    if kind == "openai":
        return OpenAIProvider(model or "gpt-4o-mini")
    if kind == "anthropic":
        return AnthropicProvider(model or "claude-haiku-4-5")
    raise ConfigError(
        f"unknown LLM provider {spec!r}: use 'openai:MODEL' or 'anthropic:MODEL' (or leave TKG_LLM unset)"
    )


# --- prompts -------------------------------------------------------------------------

_SYNTHESIS_SYSTEM = f"""You answer questions about a person's conversation history.
Use ONLY the numbered evidence in the message. Never add facts that the evidence does not state.
Evidence items may disagree over time (an item may start with its date); prefer the most recent one
unless the question asks about an earlier time.
If the evidence does not mention the main person or thing the question is about, answer exactly:
{NO_INFORMATION}
Reply in exactly two lines:
ANSWER: <a short answer, a few words or one sentence>
CITED: <the numbers of the evidence items you used, comma-separated, or none>"""

_RANK_SYSTEM = """You rank passages from a conversation history by how useful they are for answering a question.
Do not answer the question. Do not invent passages.
Reply with one line: the passage numbers, most useful first, comma-separated (for example: 3, 1, 2).
Leave out passages that do not help at all."""


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _numbered(items: Sequence[str]) -> str:
    return "\n".join(f"[{i}] {_one_line(t)}" for i, t in enumerate(items, start=1))


def synthesis_prompt(question: str, evidence_texts: Sequence[str]) -> tuple[str, str]:
    """(system, prompt) asking a model to answer from numbered evidence only, with citations.

    >>> system, prompt = synthesis_prompt("Where does Ana live?", ["Ana: I moved to Oslo."])
    >>> prompt.splitlines()[1]
    '[1] Ana: I moved to Oslo.'
    """
    evidence = _numbered(evidence_texts) if evidence_texts else "(no evidence)"
    prompt = f"Evidence:\n{evidence}\n\nQuestion: {_one_line(question)}"
    return _SYNTHESIS_SYSTEM, prompt


_CITED_LINE = re.compile(r"^\s*CITED\s*:(.*)$", re.IGNORECASE | re.MULTILINE)
_ANSWER_LINE = re.compile(
    r"^\s*ANSWER\s*:(.*?)(?=^\s*CITED\s*:|\Z)", re.IGNORECASE | re.MULTILINE | re.DOTALL
)
_BRACKETED = re.compile(r"\s*\[(\d+)\]")


def _is_no_information(answer: str) -> bool:
    return re.sub(r"[^a-z ]", "", answer.lower()).strip() == NO_INFORMATION.lower()


def parse_synthesis(text: str, n: int | None = None) -> tuple[str, list[int]]:
    """(answer, cited evidence indexes, 0-based) from a reply to `synthesis_prompt`.

    Citations out of range (when `n`, the number of evidence items, is given) are dropped;
    an abstention comes back as exactly `NO_INFORMATION` with no citations.

    >>> parse_synthesis("ANSWER: Oslo [1].\\nCITED: 1, 3", n=2)
    ('Oslo.', [0])
    """
    answer_match = _ANSWER_LINE.search(text)
    cited_match = _CITED_LINE.search(text)
    if answer_match:
        answer = answer_match.group(1)
    else:  # a model that ignored the format: the whole reply minus any CITED line
        answer = _CITED_LINE.sub("", text)
    numbers = [int(m) for m in _BRACKETED.findall(answer)]
    if cited_match:
        numbers += [int(m) for m in re.findall(r"\d+", cited_match.group(1))]
    answer = _one_line(_BRACKETED.sub("", answer))
    if _is_no_information(answer) or not answer:
        return NO_INFORMATION, []
    cited: list[int] = []
    for number in numbers:
        index = number - 1
        if index >= 0 and (n is None or index < n) and index not in cited:
            cited.append(index)
    return answer, cited


def rank_prompt(question: str, passages: Sequence[str]) -> tuple[str, str]:
    """(system, prompt) asking a model to order numbered passages by usefulness.

    >>> rank_prompt("Who is Bo?", ["Bo is my brother.", "It rained."])[1].splitlines()[-1]
    'Question: Who is Bo?'
    """
    prompt = f"Passages:\n{_numbered(passages)}\n\nQuestion: {_one_line(question)}"
    return _RANK_SYSTEM, prompt


def parse_ranking(text: str, n: int, *, complete: bool = True) -> list[int]:
    """0-based passage indexes in the model's order, from a reply to `rank_prompt`.

    Numbers outside 1..n and repeats are ignored. With `complete` (the default) the
    passages the model left out follow in their original order, so ranking never
    loses evidence; ``complete=False`` returns only those the model listed.

    >>> parse_ranking("3, 1", 4)
    [2, 0, 1, 3]
    >>> parse_ranking("[3] > [1]", 4, complete=False)
    [2, 0]
    """
    order: list[int] = []
    for match in re.findall(r"\d+", text):
        index = int(match) - 1
        if 0 <= index < n and index not in order:
            order.append(index)
    if complete:
        order += [i for i in range(n) if i not in order]
    return order
