"""Optional models per stage (extract, route, answer, rank); offline when none is set.

``providers``: the OpenAI and Anthropic SDK calls; ``spec``: which model runs each stage,
with cache, usage and limits; ``replay``: record and replay prompts as files; ``usage``:
tokens and prices; ``prompts``: rank and phrase prompts. Layout of record files: README.md here.
"""

from .prompts import parse_ranking, parse_synthesis, rank_prompt, synthesis_prompt
from .providers import (
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    AnthropicProvider,
    Backend,
    LLMProvider,
    OpenAIProvider,
    Reply,
    Request,
    estimate_tokens,
    get_provider,
    redact_secrets,
)
from .replay import Deferred, RecordBackend, ReplayBackend, ReplayMissing
from .spec import STAGES, LLMSpec, StageModel, Stages, stage_specs
from .usage import UsageLog, load_prices, summarize

__all__ = [
    "DEFAULT_RETRIES", "DEFAULT_TIMEOUT", "STAGES", "AnthropicProvider", "Backend", "Deferred", "LLMProvider",
    "LLMSpec", "OpenAIProvider", "RecordBackend", "ReplayBackend", "ReplayMissing", "Reply", "Request",
    "StageModel", "Stages", "UsageLog", "estimate_tokens", "get_provider", "load_prices", "parse_ranking",
    "parse_synthesis", "rank_prompt", "redact_secrets", "stage_specs", "summarize", "synthesis_prompt",
]
