"""Which model runs each stage: ``extract``, ``route``, ``answer``, ``rank``.

A spec is ``openai:MODEL``, ``openai:MODEL@BASE_URL`` (an OpenAI-compatible server: Ollama,
vLLM, llama.cpp's server, LM Studio), ``anthropic:MODEL``, ``record:DIR``, ``replay:DIR`` or
``none``. ``TKG_LLM`` sets every stage, ``TKG_LLM_EXTRACT`` (…``_ROUTE``, ``_ANSWER``,
``_RANK``) one; ``Memory.open(llm=...)`` takes a spec for every stage or a mapping per stage,
and wins over the environment. Nothing set: every stage is offline, exactly as without a model.

`StageModel.ask` adds what every stage needs around a provider: the disk cache, token usage,
a concurrency limit, and errors that name the stage and the model. Retries with backoff on
429, 5xx and timeouts are the SDKs' own (``max_retries``; bounded ``timeout`` per request).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

from tkg.errors import ConfigError, ProviderError

from .cache import ResponseCache, cache_dir
from .providers import (
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    AnthropicProvider,
    Backend,
    OpenAIProvider,
    Reply,
    Request,
    redact_secrets,
)
from .replay import Deferred, RecordBackend, ReplayBackend, ReplayMissing
from .usage import PROCESS, UsageLog

STAGES = ("extract", "route", "answer", "rank")
OFF = {"", "none", "off", "0"}
LLMSpec = str | Mapping[str, str] | None


def stage_specs(llm: LLMSpec = None, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The spec of each configured stage: ``TKG_LLM``, then ``TKG_LLM_<STAGE>``, then ``llm``.

    >>> stage_specs("openai:gpt-4o-mini", env={})["answer"]
    'openai:gpt-4o-mini'
    >>> stage_specs({"extract": "anthropic:claude-haiku-4-5"}, env={"TKG_LLM": "none"})
    {'extract': 'anthropic:claude-haiku-4-5'}
    """
    env = os.environ if env is None else env
    chosen = dict.fromkeys(STAGES, env.get("TKG_LLM", ""))
    for stage in STAGES:
        chosen[stage] = env.get(f"TKG_LLM_{stage.upper()}", chosen[stage])
    if isinstance(llm, str):
        chosen = dict.fromkeys(STAGES, llm)
    elif llm is not None:
        unknown = set(llm) - set(STAGES)
        if unknown:
            raise ConfigError(f"unknown LLM stage(s) {sorted(unknown)}; stages are {', '.join(STAGES)}")
        chosen.update(llm)
    return {s: v.strip() for s, v in chosen.items() if v.strip().lower() not in OFF}


def backend(spec: str) -> Backend:
    """The provider a spec names (built once per stage; SDK clients connect lazily).

    ``TKG_LLM_TIMEOUT`` (seconds a request may take, default 30) and ``TKG_LLM_RETRIES`` (retries
    after the first attempt on 429, 5xx and timeouts, with the SDK's backoff; default 2) apply."""
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    model, _, base_url = rest.partition("@")
    try:
        limits = {"timeout": float(os.environ.get("TKG_LLM_TIMEOUT", DEFAULT_TIMEOUT)),
                  "max_retries": int(os.environ.get("TKG_LLM_RETRIES", DEFAULT_RETRIES))}
    except ValueError as exc:
        raise ConfigError(f"TKG_LLM_TIMEOUT / TKG_LLM_RETRIES must be numbers ({exc})") from None
    if kind == "openai":
        return OpenAIProvider(model or "gpt-4o-mini", base_url=base_url or None, **limits)
    if kind == "anthropic":
        return AnthropicProvider(model or "claude-haiku-4-5", base_url=base_url or None, **limits)
    if kind in ("record", "replay") and rest:
        return RecordBackend(rest) if kind == "record" else ReplayBackend(rest)
    raise ConfigError(f"unknown LLM spec {spec!r}: use openai:MODEL[@BASE_URL], anthropic:MODEL, "
                      "record:DIR, replay:DIR or none")


class StageModel:
    """One stage's model, with cache, usage, a concurrency limit and errors naming both."""

    def __init__(self, stage: str, model: Backend, limit: threading.Semaphore,
                 cache: ResponseCache | None = None, concurrency: int = 4) -> None:
        self.stage = stage
        self.model = model
        self.limit = limit  # shared by every stage: calls in flight at once
        self.concurrency = concurrency
        # record/replay files are their own cache
        self.cache = None if isinstance(model, RecordBackend | ReplayBackend) else cache

    @property
    def name(self) -> str:
        return self.model.name

    def ask(self, request: Request, log: UsageLog | None = None) -> Reply:
        """The reply to ``request`` (from the cache when there), counted in ``log``.

        Raises ProviderError naming the stage and model (`Deferred` under ``record:``), and
        `ReplayMissing` (not a ProviderError: no stage falls back on it) under ``replay:``."""
        reply = self.cache.get(self.name, request) if self.cache else None
        if reply is None:
            try:
                with self.limit:
                    reply = self.model.call(request)
            except ReplayMissing:
                raise
            except Deferred:
                PROCESS.fallback(self.stage, self.name)
                raise
            except ProviderError as exc:
                PROCESS.fallback(self.stage, self.name)
                raise ProviderError(f"the {self.stage} stage's model {self.name} failed: {exc}") from None
            except Exception as exc:  # an SDK or transport error the provider did not translate
                PROCESS.fallback(self.stage, self.name)
                detail = redact_secrets(f"{type(exc).__name__}: {exc}")
                raise ProviderError(f"the {self.stage} stage's model {self.name} failed: {detail}") from None
        if log is not None:
            log.add(self.stage, reply)
        PROCESS.add(self.stage, reply)
        return reply

    def keep(self, request: Request, reply: Reply) -> None:
        """Cache a reply once the stage found it valid (an invalid one is asked again next time)."""
        if self.cache is not None and not reply.cached:
            self.cache.put(self.name, request, reply)


@dataclass
class Stages:
    """The model of each stage (None: offline), built from specs."""

    models: dict[str, StageModel] = field(default_factory=dict)

    @classmethod
    def build(cls, llm: LLMSpec = None, *, concurrency: int | None = None) -> Stages:
        specs = stage_specs(llm)
        if not specs:
            return cls()
        concurrency = concurrency or int(os.environ.get("TKG_LLM_CONCURRENCY", "4"))
        limit = threading.Semaphore(concurrency)
        where = cache_dir()
        cache = ResponseCache(where) if where else None
        made: dict[str, Backend] = {}
        models = {}
        for stage, spec in specs.items():
            if spec not in made:
                made[spec] = backend(spec)
            models[stage] = StageModel(stage, made[spec], limit, cache, concurrency)
        return cls(models)

    def get(self, stage: str) -> StageModel | None:
        return self.models.get(stage)

    def describe(self) -> dict[str, str]:
        return {s: m.name for s, m in self.models.items()}
