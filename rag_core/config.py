"""`PipelineConfig`: every knob of the pipeline, validated, JSON round-trippable.

A config is a tree of frozen dataclasses, one per stage. Every field is
validated in ``__post_init__`` and a bad value raises :class:`ConfigError` (a
``ValueError``) naming the field (``retrieval.k``), the value and the valid choices; its
``notice`` is the same message as a code and params, for the pages to word. Configs are built
from JSON (``PipelineConfig.from_dict``), from presets A–F
(``preset("E")``) and from ``key=value`` overrides as the CLI's ``--set``, the
app's URL query string and its config-B box give them: :func:`parse_overrides`
and :func:`override_items` read the text, ``config.with_overrides({...})``
applies it. Every caller goes through these, so an override means the same
everywhere.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from functools import lru_cache
from typing import Any, get_type_hints

from .config_checks import (
    CONFIG_NOT_A_BOOL,
    CONFIG_NOT_A_CHOICE,
    CONFIG_NOT_A_NUMBER,
    CONFIG_NOT_AN_INTEGER,
    ENDPOINT_PREFIX,
    boolean,
    check_endpoint_url,
    check_key_env,
    choice,
    fail,
    float_range,
    int_range,
    is_endpoint_model,
    model_name,
)
from .wording import declare

#: Bumped whenever a change alters what an index holds (see ``IndexStamp``).
PIPELINE_VERSION = "1"

CHUNK_STRATEGIES = ("blind", "boundaries", "tokens", "html")
RETRIEVAL_METHODS = ("bm25", "tfidf", "dense", "qdrant")
#: Retrievers that embed the question (no analyzer).
VECTOR_METHODS = ("dense", "qdrant")
#: Retriever lists that come from outside the in-memory index, written
#: ``"run:TAG"`` in ``retrieval.methods``: an imported run (``rag_core.retrieval.runs``).
EXTERNAL_METHODS = ("run",)
ANALYZERS = ("auto", "ascii", "unicode", "whitespace", "char", "kiwi")
BM25_VARIANTS = ("okapi", "l", "plus", "lucene")
FUSION_METHODS = ("rrf", "minmax", "zscore", "weighted")
RERANK_METHODS = ("none", "overlap", "mmr", "maxsim", "llm-judge", "cross-encoder")
CONTEXT_POLICIES = ("pack", "hard-cut")
CONTEXT_ORDERINGS = ("rank", "ends", "document")
CONTEXT_INSTRUCTIONS = ("strict", "minimal")
CITATION_MODES = ("free", "enforced")
#: ``generation.dtype``: ``auto`` = bfloat16 where the CPU computes it natively, else float32;
#: ``qint8`` = int8 Linear layers, opt-in only (``rag_core.models.dtype``).
GENERATION_DTYPES = ("auto", "float32", "bfloat16", "qint8")

#: Tokens reserved for the fixed instructions + chat template of the prompt.
#: A budget below this cannot hold the instructions, whatever the sources.
#: (tests/test_context.py checks the real system text fits under it.)
RESERVED_INSTRUCTION_TOKENS = 160

#: Chunking presets A–F (target 512 characters; docs/ARCHITECTURE.md, stage catalogue).
PRESETS: dict[str, dict[str, Any]] = {
    "A": {"strategy": "blind", "overlap": 0, "header": False},
    "B": {"strategy": "blind", "overlap": 64, "header": False},
    "C": {"strategy": "boundaries", "overlap": 0, "header": False},
    "D": {"strategy": "boundaries", "overlap": 64, "header": False},
    "E": {"strategy": "boundaries", "overlap": 0, "header": True},
    "F": {"strategy": "boundaries", "overlap": 64, "header": True},
}
#: The pseudo-key that picks a preset in overrides (``--set chunker.preset=B``, a URL's too).
PRESET_KEY = "chunker.preset"
PRESET_LABELS: dict[str, str] = {
    "A": "A · blind 512",
    "B": "B · blind 512 + overlap 64",
    "C": "C · boundaries 512",
    "D": "D · boundaries 512 + overlap 64",
    "E": "E · boundaries 512 + header",
    "F": "F · boundaries 512 + header + overlap 64",
}


CONFIG_NOT_A_STRING = declare("config.not_a_string", "key", "value")
CONFIG_EMPTY_NAME = declare("config.empty_name", "key", "value")
CONFIG_OVERLAP_TOO_BIG = declare("config.overlap_too_big", "overlap", "target")
CONFIG_METHODS_EMPTY = declare("config.methods_empty", "choices")
CONFIG_BAD_RUN_SPEC = declare("config.bad_run_spec", "spec")
CONFIG_ANALYZER_NOT_TAKEN = declare("config.analyzer_not_taken", "spec", "method")
CONFIG_METHOD_TWICE = declare("config.method_twice", "methods")
CONFIG_NGRAM_ORDER = declare("config.ngram_order", "low", "high")
CONFIG_QDRANT_BOTH = declare("config.qdrant_both")
CONFIG_QDRANT_BAD_URL = declare("config.qdrant_bad_url", "url")
CONFIG_CROSS_ENCODER_NO_MODEL = declare("config.cross_encoder_no_model")
CONFIG_BUDGET_BELOW_RESERVED = declare("config.budget_below_reserved", "budget", "reserved")
CONFIG_ENDPOINT_NO_MODEL_NAME = declare("config.endpoint_no_model_name", "model")
CONFIG_ENDPOINT_NEEDED = declare("config.endpoint_needed", "model")
CONFIG_TOKENIZER_NOT_TEXT = declare("config.tokenizer_not_text")
CONFIG_SECTION_TYPE = declare("config.section_type", "name", "kind")
CONFIG_NOT_AN_OBJECT = declare("config.not_an_object", "kind")
CONFIG_UNKNOWN_SECTIONS = declare("config.unknown_sections", "names", "sections")
CONFIG_SECTION_NOT_OBJECT = declare("config.section_not_object", "name", "value")
CONFIG_UNKNOWN_KEYS = declare("config.unknown_keys", "keys", "valid")
CONFIG_NOT_JSON = declare("config.not_json", "msg", "line", "column", "pos")
CONFIG_UNKNOWN_KEY_SECTION = declare("config.unknown_key_section", "key", "sections")
CONFIG_UNKNOWN_KEY = declare("config.unknown_key", "key", "valid")
CONFIG_UNKNOWN_PRESET = declare("config.unknown_preset", "name", "choices")


@dataclass(frozen=True)
class ChunkerConfig:
    """How documents are cut into chunks.

    ``target`` and ``overlap`` count characters, except for the ``tokens``
    strategy where they count embedding-tokenizer tokens.
    """

    strategy: str = "boundaries"
    target: int = 512
    overlap: int = 0
    header: bool = False
    min_chars: int = 40

    def __post_init__(self) -> None:
        choice("chunker.strategy", self.strategy, CHUNK_STRATEGIES)
        int_range("chunker.target", self.target, 16, 100_000)
        int_range("chunker.overlap", self.overlap, 0)
        if self.overlap >= self.target:
            raise fail(CONFIG_OVERLAP_TOO_BIG, overlap=self.overlap, target=self.target)
        boolean("chunker.header", self.header)
        int_range("chunker.min_chars", self.min_chars, 0, 100_000)

    @property
    def signature(self) -> str:
        """Stable name of this chunking, used in chunk ids and index stamps."""
        parts = [self.strategy, f"t{self.target}"]
        if self.overlap:
            parts.append(f"o{self.overlap}")
        if self.header:
            parts.append("h")
        if self.strategy == "html":
            parts.append(f"m{self.min_chars}")
        return "-".join(parts)


@dataclass(frozen=True)
class RetrievalConfig:
    """Which retrievers run, how sparse text is analysed, and the depth ``k``.

    A method may carry its own analyzer as ``"bm25:char"``; a bare method uses
    ``analyzer``. ``dense`` and ``qdrant`` ignore analyzers. ``analyzer = auto`` analyses
    Hangul runs with Kiwi and the rest as ``unicode``; ``dense_model = auto``
    is ``e5-small`` for a corpus with Korean documents, else ``minilm``
    (``rag_core.retrieval.dense.choose_dense_model``).

    ``qdrant`` searches a live Qdrant collection (``rag_core.retrieval.qdrant``): a
    server at ``qdrant_url`` or the client's embedded local mode in the folder
    ``qdrant_path`` (one of the two), the collection ``qdrant_collection``,
    its payload fields holding the text and the document id, and the embedder
    ``qdrant_model`` that encodes the question (it must be the collection's).
    """

    methods: tuple[str, ...] = ("bm25",)
    analyzer: str = "auto"
    k: int = 8
    bm25_variant: str = "lucene"
    k1: float = 1.2
    b: float = 0.75
    delta: float = 0.5
    epsilon: float = 0.25
    ngram_min: int = 2
    ngram_max: int = 4
    dense_model: str = "auto"
    qdrant_url: str = ""
    qdrant_path: str = ""
    qdrant_collection: str = "rag-inspector"
    qdrant_text_field: str = "text"
    qdrant_doc_field: str = "doc_id"
    qdrant_model: str = "minilm"

    def __post_init__(self) -> None:
        methods = self.methods
        if isinstance(methods, str):
            methods = tuple(m.strip() for m in methods.split(",") if m.strip())
            object.__setattr__(self, "methods", methods)
        elif isinstance(methods, list):
            object.__setattr__(self, "methods", tuple(methods))
        if not self.methods:
            raise fail(CONFIG_METHODS_EMPTY, choices=", ".join(RETRIEVAL_METHODS))
        for spec in self.methods:
            method, _, analyzer = str(spec).partition(":")
            if method in EXTERNAL_METHODS:
                if not analyzer or any(ch.isspace() or ch == "," for ch in analyzer):
                    raise fail(CONFIG_BAD_RUN_SPEC, spec=spec)
                continue
            choice("retrieval.methods", method, RETRIEVAL_METHODS + EXTERNAL_METHODS)
            if analyzer:
                if method in VECTOR_METHODS:
                    raise fail(CONFIG_ANALYZER_NOT_TAKEN, spec=spec, method=method)
                choice(f"retrieval.methods ({spec})", analyzer, ANALYZERS)
        if len(set(self.method_specs)) != len(self.method_specs):
            raise fail(CONFIG_METHOD_TWICE, methods=list(self.methods))
        choice("retrieval.analyzer", self.analyzer, ANALYZERS)
        int_range("retrieval.k", self.k, 1, 10_000)
        choice("retrieval.bm25_variant", self.bm25_variant, BM25_VARIANTS)
        float_range("retrieval.k1", self.k1, 0.0)
        float_range("retrieval.b", self.b, 0.0, 1.0)
        float_range("retrieval.delta", self.delta, 0.0)
        float_range("retrieval.epsilon", self.epsilon, 0.0)
        int_range("retrieval.ngram_min", self.ngram_min, 1, 10)
        int_range("retrieval.ngram_max", self.ngram_max, 1, 10)
        if self.ngram_max < self.ngram_min:
            raise fail(CONFIG_NGRAM_ORDER, low=self.ngram_min, high=self.ngram_max)
        model_name("retrieval.dense_model", self.dense_model)
        self._check_qdrant()

    def _check_qdrant(self) -> None:
        for key in ("qdrant_url", "qdrant_path"):
            if not isinstance(getattr(self, key), str):
                raise fail(CONFIG_NOT_A_STRING, key=f"retrieval.{key}", value=getattr(self, key))
        if self.qdrant_url and self.qdrant_path:
            raise fail(CONFIG_QDRANT_BOTH)
        if self.qdrant_url and not self.qdrant_url.startswith(("http://", "https://")):
            raise fail(CONFIG_QDRANT_BAD_URL, url=self.qdrant_url)
        for key in ("qdrant_collection", "qdrant_text_field", "qdrant_doc_field"):
            value = getattr(self, key)
            if not isinstance(value, str) or not value.strip():
                raise fail(CONFIG_EMPTY_NAME, key=f"retrieval.{key}", value=value)
        model_name("retrieval.qdrant_model", self.qdrant_model)

    @property
    def method_specs(self) -> tuple[tuple[str, str | None], ...]:
        """``(method, analyzer)`` per retriever; analyzer is None for dense and qdrant, the tag
        for ``run``."""
        out: list[tuple[str, str | None]] = []
        for spec in self.methods:
            method, _, analyzer = spec.partition(":")
            if method in EXTERNAL_METHODS:
                out.append((method, analyzer))
                continue
            out.append((method, None if method in VECTOR_METHODS else (analyzer or self.analyzer)))
        return tuple(out)


@dataclass(frozen=True)
class FusionConfig:
    """How several retrievers' lists become one (ignored with one retriever).

    ``alpha`` weighs the first list in ``weighted`` (``α·s₁ + (1−α)·s₂`` over
    min-max normalised scores).
    """

    method: str = "rrf"
    rrf_k: int = 60
    alpha: float = 0.5

    def __post_init__(self) -> None:
        choice("fusion.method", self.method, FUSION_METHODS)
        int_range("fusion.rrf_k", self.rrf_k, 0, 100_000)
        float_range("fusion.alpha", self.alpha, 0.0, 1.0)


@dataclass(frozen=True)
class RerankConfig:
    """Reorder the top ``shortlist`` candidates; the rest keep their order."""

    method: str = "none"
    shortlist: int = 20
    mmr_lambda: float = 0.7
    model: str = ""

    def __post_init__(self) -> None:
        choice("rerank.method", self.method, RERANK_METHODS)
        int_range("rerank.shortlist", self.shortlist, 1, 1000)
        float_range("rerank.mmr_lambda", self.mmr_lambda, 0.0, 1.0)
        if not isinstance(self.model, str):
            raise fail(CONFIG_NOT_A_STRING, key="rerank.model", value=self.model)
        if self.method == "cross-encoder" and not self.model.strip():
            raise fail(CONFIG_CROSS_ENCODER_NO_MODEL)


@dataclass(frozen=True)
class GateConfig:
    """Keep at most ``max_kept`` candidates that pass the threshold.

    ``max_distance`` applies to the cosine distance (1 − cos) a dense model
    gives a candidate; ``min_score`` to the final score when no distance is
    known. ``None`` disables a threshold. When nothing passes, the pipeline
    refuses without calling the model.
    """

    max_distance: float | None = None
    min_score: float | None = None
    max_kept: int | None = None

    def __post_init__(self) -> None:
        if self.max_distance is not None:
            float_range("gate.max_distance", self.max_distance, 0.0, 2.0)
        if self.min_score is not None:
            float_range("gate.min_score", self.min_score, -1e9)
        if self.max_kept is not None:
            int_range("gate.max_kept", self.max_kept, 1, 10_000)


#: The most a shared link (an address's query string) may set for the sizes that cost time:
#: ``retrieval.k=2000&context.budget_tokens=1000000&context.max_source_chars=1000000``
#: would otherwise keep the server busy for minutes. The sidebar, ``RAG_INSPECTOR_SET`` and
#: the CLI still reach :class:`PipelineConfig`'s own ranges.
URL_LIMITS: dict[str, int] = {
    "retrieval.k": 200,
    "context.budget_tokens": 32_768,
    "context.max_source_chars": 20_000,
}


def url_bounded(overrides: Mapping[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str, int]]]:
    """``overrides`` from an address with each size of :data:`URL_LIMITS` above its limit
    lowered to it, and ``(key, value asked, limit)`` per lowered key. A value that is not a
    whole number is left for the config's own validation to report."""
    kept = dict(overrides)
    lowered: list[tuple[str, str, int]] = []
    for key, limit in URL_LIMITS.items():
        if key not in kept:
            continue
        try:
            asked = int(str(kept[key]).strip())
        except ValueError:
            continue
        if asked > limit:
            kept[key] = str(limit)
            lowered.append((key, str(overrides[key])[:20], limit))
    return kept, lowered


@dataclass(frozen=True)
class ContextConfig:
    """How kept candidates become the prompt's numbered sources.

    ``instructions``: ``strict`` (sources are untrusted data, cite every
    claim, refuse when the sources lack the answer) or ``minimal`` (cite, no
    refusal clause — what many tutorials ship; a lecture foil).
    """

    budget_tokens: int = 1024
    policy: str = "pack"
    ordering: str = "rank"
    dedup: bool = True
    dedup_threshold: float = 0.8
    max_source_chars: int = 1500
    instructions: str = "strict"

    def __post_init__(self) -> None:
        int_range("context.budget_tokens", self.budget_tokens, 1, 1_000_000)
        if self.budget_tokens < RESERVED_INSTRUCTION_TOKENS:
            raise fail(
                CONFIG_BUDGET_BELOW_RESERVED,
                budget=self.budget_tokens,
                reserved=RESERVED_INSTRUCTION_TOKENS,
            )
        choice("context.policy", self.policy, CONTEXT_POLICIES)
        choice("context.ordering", self.ordering, CONTEXT_ORDERINGS)
        boolean("context.dedup", self.dedup)
        float_range("context.dedup_threshold", self.dedup_threshold, 0.0, 1.0, low_open=True)
        int_range("context.max_source_chars", self.max_source_chars, 50, 1_000_000)
        choice("context.instructions", self.instructions, CONTEXT_INSTRUCTIONS)


#: How enforced citations reach an endpoint's constrained decoding
#: (``rag_core.answer.endpoint_grammar``).
ENDPOINT_GRAMMARS = ("auto", "gbnf", "guided_regex", "structured_outputs", "none")


@dataclass(frozen=True)
class GenerationConfig:
    """The local generator; ``model = "none"`` skips generation.

    ``citations``: ``free`` (the model cites when it chooses to) or
    ``enforced`` (constrained decoding: the exact refusal sentence, or
    sentences each ending with ``[n]`` over the sources sent; see
    ``rag_core.answer.citations``).

    ``dtype``: what the model computes in — ``float32``, ``bfloat16``,
    ``auto`` (bfloat16 where the CPU has native bfloat16 arithmetic, float32
    elsewhere; ``rag_core.models.dtype``), or ``qint8`` (float32 with the Linear
    layers dynamically quantised to int8; never picked by ``auto``). The Trace
    records the one used.
    """

    model: str = "qwen2.5-coder-0.5b"
    max_new_tokens: int = 128
    citations: str = "enforced"
    dtype: str = "auto"
    endpoint: str = ""
    api_key_env: str = ""
    tokenizer: str = ""
    connect_timeout_s: float = 5.0
    first_token_timeout_s: float = 60.0
    total_timeout_s: float = 120.0
    endpoint_grammar: str = "auto"

    def __post_init__(self) -> None:
        model_name("generation.model", self.model)
        int_range("generation.max_new_tokens", self.max_new_tokens, 1, 2048)
        choice("generation.citations", self.citations, CITATION_MODES)
        choice("generation.dtype", self.dtype, GENERATION_DTYPES)
        choice("generation.endpoint_grammar", self.endpoint_grammar, ENDPOINT_GRAMMARS)
        self._check_endpoint()

    def _check_endpoint(self) -> None:
        if is_endpoint_model(self.model) and not self.model[len(ENDPOINT_PREFIX) :].strip():
            raise fail(CONFIG_ENDPOINT_NO_MODEL_NAME, model=self.model)
        if self.endpoint:
            check_endpoint_url(self.endpoint)
        elif is_endpoint_model(self.model):
            raise fail(CONFIG_ENDPOINT_NEEDED, model=self.model)
        check_key_env(self.api_key_env)
        if not isinstance(self.tokenizer, str):
            raise fail(CONFIG_TOKENIZER_NOT_TEXT)
        for key in ("connect_timeout_s", "first_token_timeout_s", "total_timeout_s"):
            float_range(f"generation.{key}", getattr(self, key), 0.0, 3600.0, low_open=True)


@dataclass(frozen=True)
class SupportConfig:
    """The per-claim support check (see ``rag_core.answer.support``).

    ``min_p``: a source supports a claim when the support model's ``p_supported ≥ min_p``
    (default chosen by ``bench/fit_support.py``; docs/MODELS.md, "Per-claim support").
    ``judge``: stack the generator's ``P(yes)`` on the model. ``readings``: the bundled
    generator reads the answer after its sources and the head uses what its attention and
    probabilities say (off: the lexical head alone, faster and less accurate; also used when
    the bundled generator is not installed). ``min_overlap``, ``min_cosine``
    and ``judge_threshold`` are the thresholds of the rule ``min_p`` replaced: still accepted
    (old links and saved configs load) but unused.
    """

    min_p: float = 0.75
    judge: bool = False
    readings: bool = True
    min_overlap: float = 0.40  # unused since min_p (kept so old configs load)
    min_cosine: float = 0.15  # unused since min_p
    judge_threshold: float = 0.5  # unused since min_p

    def __post_init__(self) -> None:
        float_range("support.min_p", self.min_p, 0.0, 1.0)
        boolean("support.judge", self.judge)
        boolean("support.readings", self.readings)
        float_range("support.min_overlap", self.min_overlap, 0.0, 1.0)
        float_range("support.min_cosine", self.min_cosine, -1.0, 1.0)
        float_range("support.judge_threshold", self.judge_threshold, 0.0, 1.0)


SECTIONS: dict[str, type] = {
    "chunker": ChunkerConfig,
    "retrieval": RetrievalConfig,
    "fusion": FusionConfig,
    "rerank": RerankConfig,
    "gate": GateConfig,
    "context": ContextConfig,
    "generation": GenerationConfig,
    "support": SupportConfig,
}


@dataclass(frozen=True)
class PipelineConfig:
    """Every knob of one pipeline run."""

    chunker: ChunkerConfig = field(default_factory=ChunkerConfig)
    retrieval: RetrievalConfig = field(default_factory=RetrievalConfig)
    fusion: FusionConfig = field(default_factory=FusionConfig)
    rerank: RerankConfig = field(default_factory=RerankConfig)
    gate: GateConfig = field(default_factory=GateConfig)
    context: ContextConfig = field(default_factory=ContextConfig)
    generation: GenerationConfig = field(default_factory=GenerationConfig)
    support: SupportConfig = field(default_factory=SupportConfig)

    def __post_init__(self) -> None:
        for name, cls in SECTIONS.items():
            if not isinstance(getattr(self, name), cls):
                raise fail(CONFIG_SECTION_TYPE, name=name, kind=cls.__name__)

    # -- serialisation -------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A fresh nested dict (from a memoised JSON form: every Trace stores one)."""
        return json.loads(_config_json(self))

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)

    @classmethod
    def from_dict(cls, data: Any) -> PipelineConfig:
        """Build from a nested dict; unknown sections or keys are errors."""
        if not isinstance(data, dict):
            raise fail(CONFIG_NOT_AN_OBJECT, kind=type(data).__name__)
        unknown = sorted(set(data) - set(SECTIONS))
        if unknown:
            raise fail(
                CONFIG_UNKNOWN_SECTIONS, names=", ".join(unknown), sections=", ".join(SECTIONS)
            )
        parts = {}
        for name, sec_cls in SECTIONS.items():
            values = data.get(name, {})
            if not isinstance(values, dict):
                raise fail(CONFIG_SECTION_NOT_OBJECT, name=name, value=values)
            valid = [f.name for f in fields(sec_cls)]
            bad = sorted(set(values) - set(valid))
            if bad:
                raise fail(
                    CONFIG_UNKNOWN_KEYS,
                    keys=", ".join(f"{name}.{b}" for b in bad),
                    valid=", ".join(f"{name}.{v}" for v in valid),
                )
            parts[name] = sec_cls(**values)
        return cls(**parts)

    @classmethod
    def from_json(cls, text: str) -> PipelineConfig:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise fail(
                CONFIG_NOT_JSON, msg=exc.msg, line=exc.lineno, column=exc.colno, pos=exc.pos
            ) from None
        return cls.from_dict(data)

    # -- overrides -----------------------------------------------------
    def with_overrides(self, overrides: Mapping[str, Any]) -> PipelineConfig:
        """Return a copy with ``{"section.key": value}`` applied.

        String values (from the CLI or a URL) are parsed by the field's type:
        ``"none"``/``""`` → None for optional fields, ``true``/``false`` for
        booleans, comma lists for ``retrieval.methods``. The pseudo-key
        ``chunker.preset`` (:data:`PRESET_KEY`, a letter A–F) replaces the
        whole chunker section first, so ``chunker.preset=B`` with
        ``chunker.overlap=32`` means "B, but overlap 32".
        """
        rest = dict(overrides)
        base = self
        if PRESET_KEY in rest:
            name = rest.pop(PRESET_KEY)
            letter = str(name).strip().upper()
            if letter not in PRESETS:
                raise fail(
                    CONFIG_NOT_A_CHOICE, key=PRESET_KEY, value=name, choices=", ".join(PRESETS)
                )
            base = preset(letter, self)
            if not rest:
                return base
        sections = {name: dict(asdict(getattr(base, name))) for name in SECTIONS}
        for key, raw in rest.items():
            section, _, name = key.partition(".")
            if section not in SECTIONS or not name:
                raise fail(CONFIG_UNKNOWN_KEY_SECTION, key=key, sections=", ".join(SECTIONS))
            hints = get_type_hints(SECTIONS[section])
            if name not in hints:
                valid = ", ".join(f"{section}.{f.name}" for f in fields(SECTIONS[section]))
                raise fail(CONFIG_UNKNOWN_KEY, key=key, valid=valid)
            sections[section][name] = parse_value(key, raw, hints[name])
        return PipelineConfig(**{n: SECTIONS[n](**v) for n, v in sections.items()})

    def flat(self) -> dict[str, Any]:
        """``{"section.key": value}`` for every field (the URL/CLI form)."""
        out: dict[str, Any] = {}
        for name in SECTIONS:
            for f in fields(SECTIONS[name]):
                value = getattr(getattr(self, name), f.name)
                out[f"{name}.{f.name}"] = list(value) if isinstance(value, tuple) else value
        return out

    def replace(self, **sections: Any) -> PipelineConfig:
        return replace(self, **sections)


@lru_cache(maxsize=256)
def _config_json(config: PipelineConfig) -> str:
    out = asdict(config)
    out["retrieval"]["methods"] = list(config.retrieval.methods)
    return json.dumps(out, ensure_ascii=False)


def parse_value(key: str, raw: Any, hint: Any) -> Any:
    """Parse a ``--set``/URL string into the field's type; non-strings pass through."""
    if not isinstance(raw, str):
        return tuple(raw) if isinstance(raw, list) else raw
    text = raw.strip()
    hint_s = str(hint)
    optional = "None" in hint_s
    if optional and text.lower() in ("", "none", "null", "off"):
        return None
    if "tuple" in hint_s:
        return tuple(p.strip() for p in text.split(",") if p.strip())
    if hint is bool:
        if text.lower() in ("true", "1", "yes", "on"):
            return True
        if text.lower() in ("false", "0", "no", "off"):
            return False
        raise fail(CONFIG_NOT_A_BOOL, key=key, value=raw)
    if hint is int or hint_s.startswith("int"):
        try:
            return int(text)
        except ValueError:
            raise fail(CONFIG_NOT_AN_INTEGER, key=key, value=raw) from None
    if hint is float or hint_s.startswith("float"):
        try:
            return float(text)
        except ValueError:
            raise fail(CONFIG_NOT_A_NUMBER, key=key, value=raw) from None
    return text


def preset(name: str, base: PipelineConfig | None = None) -> PipelineConfig:
    """The chunking presets A–F (target 512), on top of ``base``."""
    key = name.strip().upper()
    if key not in PRESETS:
        raise fail(CONFIG_UNKNOWN_PRESET, name=name, choices=", ".join(PRESETS))
    base = base or PipelineConfig()
    chunker = ChunkerConfig(target=512, **PRESETS[key])
    return replace(base, chunker=chunker)
