"""Data contracts shared by every stage: documents, chunks, hits, stage results.

All results are frozen dataclasses that serialise to JSON through
:func:`to_jsonable`. Offsets (``start``, ``end``, ``own_start``) always refer
to :attr:`Document.text`, the canonical text (NFC, ``\\n`` newlines), so that
``doc.text[chunk.start:chunk.end] == chunk.content`` holds everywhere.
"""

from __future__ import annotations

import dataclasses
import json
import math
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, Literal, TypeAlias, TypeVar, overload

StageStatus = Literal["ok", "skipped", "unavailable", "error"]

_T = TypeVar("_T")


def to_jsonable(obj: Any) -> Any:
    """Convert dataclasses, mappings, tuples and numpy scalars to JSON types.

    Non-finite floats become ``None`` (JSON has no NaN/inf).
    """
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, Mapping):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, Hits, LazyTuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, bool) or obj is None or isinstance(obj, str):
        return obj
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    # numpy scalars and arrays without importing numpy here
    if hasattr(obj, "item") and hasattr(obj, "dtype"):
        if getattr(obj, "ndim", 0) == 0:
            return to_jsonable(obj.item())
        return to_jsonable(obj.tolist())
    if hasattr(obj, "to_dict"):
        return to_jsonable(obj.to_dict())
    raise TypeError(f"cannot serialise {type(obj).__name__} to JSON")


def dumps(obj: Any, **kwargs: Any) -> str:
    """``json.dumps(to_jsonable(obj))`` keeping non-ASCII text readable."""
    return json.dumps(to_jsonable(obj), ensure_ascii=False, **kwargs)


# --- h-pages: notices as codes plus data; the UI (ui/i18n.py) and the CLI word them ---
@dataclass(frozen=True)
class Notice:
    """A message from the core: a stable ``code`` and the ``params`` its wording needs.

    The core never writes the sentence: the pages word a notice in Korean or
    English (``ui/i18n.py``), the CLI in English (``rag_core/cli.py``), so no
    caller has to recognise a message by its text.
    """

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- documents


@dataclass(frozen=True)
class Block:
    """A paragraph-like element of a document's canonical text.

    For HTML these are the visible block elements (``p``, ``li``, ``td``,
    ``h2`` …); for Markdown/text the paragraphs and heading lines.
    """

    start: int
    end: int
    kind: str


@dataclass(frozen=True)
class Document:
    """One loaded document. ``text`` is canonical; every offset refers to it."""

    doc_id: str
    title: str
    text: str
    source: str = ""
    version: str = ""
    path: str = ""
    format: str = "txt"
    blocks: tuple[Block, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FailedDocument:
    """A file (or row) that could not be loaded, and why."""

    path: str
    reason: str


@dataclass(frozen=True)
class LoadedFile:
    """One file of a load: how its bytes were decoded and what it gave.

    ``encoding`` is the codec the text was decoded with (``""`` when the file
    was refused before decoding); ``notes`` are non-fatal remarks a reader
    should see (e.g. an encoding chosen over another that also decodes).
    """

    path: str
    encoding: str = ""
    n_documents: int = 0
    n_failed: int = 0
    seconds: float = 0.0
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoadReport:
    """What a load produced: documents, failures, per-file details, and counts."""

    documents: tuple[Document, ...]
    failed: tuple[FailedDocument, ...] = ()
    files: tuple[LoadedFile, ...] = ()

    @property
    def n_documents(self) -> int:
        return len(self.documents)

    @property
    def n_chars(self) -> int:
        return sum(len(d.text) for d in self.documents)


# ---------------------------------------------------------------- questions


@dataclass(frozen=True)
class Needle:
    """Gold evidence: an exact string of one document that answers a question.

    ``start``/``end`` are set for labeled spans; a needle from a question set
    is found in the document text (it occurs exactly once).
    """

    doc_id: str
    text: str
    start: int | None = None
    end: int | None = None
    grade: int = 1
    origin: str = (
        "needle"  # needle (shipped) | label (manual) | needle+label (label overrides grade)
    )


@dataclass(frozen=True)
class Question:
    """One question of a question set (``sample_corpus/questions/*.jsonl``)."""

    id: str
    lang: str
    question: str
    phrasings: tuple[str, ...] = ()
    needles: tuple[Needle, ...] = ()
    answerable: bool = True
    tags: tuple[str, ...] = ()


# ------------------------------------------------------------------- chunks


@dataclass(frozen=True)
class Chunk:
    """A span of one document.

    ``content`` is the document's own words (what is quoted and cited);
    ``text`` is what is embedded/indexed (``header + content``).
    ``own_start`` is where this chunk's own words begin: with overlap,
    ``start < own_start`` and ``doc.text[start:own_start]`` was copied from the
    previous chunk.
    """

    chunk_id: str
    doc_id: str
    ordinal: int
    start: int
    end: int
    own_start: int
    content: str
    text: str
    section: str = ""
    header: str = ""
    tokens: int | None = None
    #: The chunk ends mid-word: its text had no boundary at the target (a
    #: spaceless line), so the chunker cut it there.
    hard_cut: bool = False


@dataclass(frozen=True)
class NeedleLoss:
    """A gold needle that no chunk contains entirely, and the cut that broke it."""

    doc_id: str
    needle: str
    start: int | None
    end: int | None
    cut_at: tuple[int, ...] = ()
    reason: str = "split"


@dataclass(frozen=True)
class ChunkingDiagnostics:
    """Facts about one chunking of a corpus (see docs/ARCHITECTURE.md, stage catalogue)."""

    n_chunks: int
    n_documents: int
    chars_min: int
    chars_mean: float
    chars_max: int
    tokens_min: int | None
    tokens_mean: float | None
    tokens_max: int | None
    encoder_window: int
    over_window: tuple[str, ...]
    header_tokens: int | None
    total_tokens: int | None
    header_token_share: float | None
    destroyed: tuple[NeedleLoss, ...] = ()
    n_needles: int = 0
    n_skipped_blocks: int = 0  # html strategy: blocks under min_chars that became no chunk
    #: Needles whose document is unknown or whose text is not found: no chunking
    #: loss (not in ``destroyed``, not in ``n_needles``), reported on their own.
    not_in_corpus: tuple[NeedleLoss, ...] = ()
    n_hard_cuts: int = 0  # chunks ending where no boundary was found at the target (cut mid-word)


# --------------------------------------------------------------- retrieval


@dataclass(frozen=True, init=False)
class Hit:
    """One candidate in one ranked list.

    ``rank`` is 1-based. Stage-specific facts ride along: ``distance`` (cosine
    distance 1 − cos when a dense model scored the chunk), ``list_ranks`` and
    ``contributions`` (fusion: the chunk's rank in, and contribution from,
    each input list), ``prev_rank``/``retrieval_score`` (rerank).

    The constructor is the dataclass one written out: it fills the instance
    dict in one step, with only the fields given a non-default value, instead
    of one frozen ``__setattr__`` per field (about 3× faster). The pipeline's
    stages hold their hits as :class:`Hits` (by field) and make Hit objects
    only when a page or the JSON reads them.
    """

    chunk_id: str
    doc_id: str
    rank: int
    score: float
    distance: float | None = None
    list_ranks: Mapping[str, int] = field(default_factory=dict)
    contributions: Mapping[str, float] = field(default_factory=dict)
    prev_rank: int | None = None
    retrieval_score: float | None = None
    tied: bool = False
    note: str = ""

    def __init__(
        self,
        chunk_id: str,
        doc_id: str,
        rank: int,
        score: float,
        distance: float | None = None,
        list_ranks: Mapping[str, int] | None = None,
        contributions: Mapping[str, float] | None = None,
        prev_rank: int | None = None,
        retrieval_score: float | None = None,
        tied: bool = False,
        note: str = "",
    ) -> None:
        # Only the fields that differ from their default go in the instance
        # dict; a default is read from the class (``_HIT_DEFAULTS`` below).
        d = {"chunk_id": chunk_id, "doc_id": doc_id, "rank": rank, "score": score}
        if distance is not None:
            d["distance"] = distance
        if list_ranks:
            d["list_ranks"] = list_ranks
        if contributions:
            d["contributions"] = contributions
        if prev_rank is not None:
            d["prev_rank"] = prev_rank
        if retrieval_score is not None:
            d["retrieval_score"] = retrieval_score
        if tied:
            d["tied"] = tied
        if note:
            d["note"] = note
        object.__setattr__(self, "__dict__", d)


def from_fields(cls: type[_T], fields_: Iterable[dict[str, Any]]) -> list[_T]:
    """Instances of the frozen dataclass ``cls`` whose instance dicts are the given dicts.

    What the constructor does, for many instances in a few C-level calls
    (about 1.5× faster than one constructor call each). Only for classes
    without ``__post_init__`` or ``__slots__``; each dict must hold every field
    without a default, a field it lacks reads as its class default, and the
    instances own the dicts afterwards.
    """
    dicts = list(fields_)
    made = list(map(_new_object, repeat(cls, len(dicts))))
    # object.__setattr__ returns None: any() runs it over every pair and stops at the end
    any(map(_set_object_attr, made, repeat("__dict__"), dicts))
    return made


_new_object = object.__new__
_set_object_attr = object.__setattr__

#: default of a parameter whose field has a default factory (see :func:`fast_init`)
_FACTORY: Any = object()


def fast_init(cls: type[_T]) -> type[_T]:
    """Give the frozen dataclass ``cls`` an ``__init__`` that stores all fields in one call.

    A frozen dataclass's generated ``__init__`` sets each field with its own
    ``object.__setattr__`` call; this one takes the same parameters (order,
    defaults, default factories) and sets the instance dict once, about 1.5×
    faster. For the stage results made once per query of an evaluation. The
    generated one stays at ``cls.__dataclass_init__`` (tests compare the two).

    Raises:
        ValueError: ``cls`` is not a frozen dataclass, or has ``__post_init__``,
            ``__slots__``, init-only, non-init or keyword-only fields.
    """
    params = getattr(cls, "__dataclass_params__", None)
    fields_ = dataclasses.fields(cls) if params is not None else ()  # type: ignore[arg-type]
    if (
        params is None
        or not params.frozen
        or hasattr(cls, "__post_init__")
        or "__slots__" in cls.__dict__
        or any(not f.init or f.kw_only for f in fields_)
        or len(fields_) != len(getattr(cls, "__dataclass_fields__", ()))
    ):
        raise ValueError(
            f"fast_init: {cls.__name__} must be a frozen dataclass without __post_init__, "
            "__slots__, init-only, non-init or keyword-only fields"
        )
    env: dict[str, Any] = {"_set": _set_object_attr, "_FACTORY": _FACTORY}
    args, items = [], []
    for f in fields_:
        if f.default is not dataclasses.MISSING:
            env[f"_d_{f.name}"] = f.default
            args.append(f"{f.name}=_d_{f.name}")
            items.append(f"{f.name!r}: {f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            env[f"_f_{f.name}"] = f.default_factory
            args.append(f"{f.name}=_FACTORY")
            items.append(f"{f.name!r}: _f_{f.name}() if {f.name} is _FACTORY else {f.name}")
        else:
            args.append(f.name)
            items.append(f"{f.name!r}: {f.name}")
    body = f"_set(self, '__dict__', {{{', '.join(items)}}})"
    exec(f"def __init__(self, {', '.join(args)}):\n    {body}\n", env)  # field names only
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__dataclass_init__ = cls.__init__  # type: ignore[attr-defined]
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


@dataclass(frozen=True)
class BaseField:
    """A column of :meth:`Hits.take`'s result that is field ``name`` of the hits taken from
    (e.g. a reranked hit's ``prev_rank`` is the ``rank`` it had), picked on first read."""

    name: str


#: One field of many hits: its values in rank order, a function making them (called
#: once, on first read), or (in :meth:`Hits.take`) a field of the hits taken from.
Column: TypeAlias = "Sequence[Any] | Callable[[], Sequence[Any]] | BaseField"

_HIT_REQUIRED = frozenset(("chunk_id", "doc_id", "rank", "score"))


class Hits(Sequence[Hit]):
    """A stage's ranked hits stored by field; a :class:`Hit` object is made only when read.

    A read-only sequence of :class:`Hit`, usable wherever a tuple of hits is:
    ``len``, indexing, slices, iteration, ``==`` with tuples and lists, ``+``,
    pickling, JSON (:func:`to_jsonable`). Each field (``chunk_id``, ``score``,
    …) is kept as a column: a list, or a function making it on first read.
    :meth:`column` reads one field of every hit without making any Hit, and
    :meth:`take` picks and reorders hits without copying anything until a
    field is read. An evaluation reads a few fields of a hundred candidates
    per stage and query and never the rest, so the pipeline builds its
    stages as ``Hits`` instead of one object per candidate
    (docs/ARCHITECTURE.md, "Columnar hits").
    """

    __slots__ = ("_n", "_cols", "_items", "_base", "_at")

    def __init__(self, n: int, columns: Mapping[str, Column]) -> None:
        """``n`` hits whose fields are ``columns`` (name → ``n`` values, or a function making
        them); ``chunk_id``, ``doc_id``, ``rank`` and ``score`` are required, a field not given
        reads as Hit's default."""
        names = columns.keys()
        if not (_HIT_REQUIRED <= names <= _HIT_FIELDS):
            missing = [f for f in _HIT_FIELD_ORDER if f in _HIT_REQUIRED and f not in names]
            unknown = sorted(names - _HIT_FIELDS)
            raise ValueError(
                f"Hits columns: missing {missing}, unknown {unknown}; "
                f"valid fields: {', '.join(sorted(_HIT_FIELDS))}"
            )
        self._n = n
        self._cols: dict[str, Column] = dict(columns)
        self._items: tuple[Hit, ...] | None = None
        self._base: Hits | None = None
        self._at: Sequence[int] = ()

    @classmethod
    def of(cls, hits: Iterable[Hit]) -> Hits:
        """The given Hit objects as ``Hits`` (returned unchanged when already ``Hits``)."""
        if isinstance(hits, Hits):
            return hits
        out = cls.__new__(cls)
        out._items = tuple(hits)
        out._n = len(out._items)
        out._cols = {}
        out._base = None
        out._at = ()
        return out

    def column(self, name: str) -> Sequence[Any]:
        """Field ``name`` of every hit, in rank order (made once, then kept)."""
        col = self._cols.get(name)
        if col is None:
            if name not in _HIT_FIELDS:
                raise ValueError(
                    f"Hit has no field {name!r}; valid fields: {', '.join(sorted(_HIT_FIELDS))}"
                )
            if self._base is not None:
                col = pick(self._base.column(name), self._at)
            elif self._items is not None:
                col = [getattr(h, name) for h in self._items]
            else:
                col = [getattr(Hit, name)] * self._n
        elif isinstance(col, BaseField):
            if self._base is None:
                raise ValueError(f"field {name!r} = {col}: these hits were not taken from others")
            col = pick(self._base.column(col.name), self._at)
        elif callable(col):
            col = col()
        else:
            return col
        self._cols[name] = col
        return col

    def fields(self) -> tuple[str, ...]:
        """The fields these hits hold (the others read as Hit's defaults)."""
        if self._items is not None:
            return _HIT_FIELD_ORDER
        names = dict.fromkeys(self._base.fields()) if self._base is not None else {}
        names.update(dict.fromkeys(self._cols))
        return tuple(names)

    def take(self, positions: Sequence[int], **columns: Column) -> Hits:
        """The hits at ``positions`` (in that order) as new ``Hits``, ``columns`` replacing
        fields (a :class:`BaseField` names a field of these hits, picked the same way).
        Nothing is copied now: each field is picked on its first read."""
        if not columns.keys() <= _HIT_FIELDS:
            unknown = sorted(columns.keys() - _HIT_FIELDS)
            valid = ", ".join(sorted(_HIT_FIELDS))
            raise ValueError(f"Hits.take: unknown fields {unknown}; valid fields: {valid}")
        out = Hits.__new__(Hits)
        out._n = len(positions)
        out._cols = columns
        out._items = None
        out._base = self
        out._at = positions
        return out

    def _made(self) -> tuple[Hit, ...]:
        items = self._items
        if items is None:
            names = self.fields()
            cols = [self.column(name) for name in names]
            rows = zip(*cols, strict=True)  # chunk_id, doc_id, rank and score at least
            items = tuple(from_fields(Hit, [dict(zip(names, row, strict=True)) for row in rows]))
            if len(items) != self._n:
                raise ValueError(f"Hits: columns hold {len(items)} hits, not {self._n}")
            self._items = items
        return items

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Hit: ...

    @overload
    def __getitem__(self, i: slice) -> Hits: ...

    def __getitem__(self, i: int | slice) -> Hit | Hits:
        if isinstance(i, slice):
            return self.take(range(self._n)[i])
        return self._made()[i]

    def __iter__(self) -> Iterator[Hit]:
        return iter(self._made())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Hits, tuple, list)):
            return len(other) == self._n and all(map(operator.eq, self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._made())

    def __add__(self, other: Iterable[Hit]) -> tuple[Hit, ...]:
        return self._made() + tuple(other)

    def __radd__(self, other: Iterable[Hit]) -> tuple[Hit, ...]:
        return tuple(other) + self._made()

    def __repr__(self) -> str:
        return f"Hits({list(self._made())!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        if self._items is not None:
            return (Hits.of, (self._items,))
        return (Hits, (self._n, {name: list(self.column(name)) for name in self.fields()}))


def pick(values: Sequence[_T], positions: Sequence[int]) -> Sequence[_T]:
    """``[values[p] for p in positions]``: a slice when the positions are a step-1 range,
    else one ``itemgetter`` call (a tuple, read in C)."""
    if isinstance(positions, range) and positions.step == 1:
        return values[positions.start : positions.stop]
    if len(positions) > 1:
        return operator.itemgetter(*positions)(values)
    return [values[p] for p in positions]


class LazyTuple(Sequence[_T]):
    """A read-only sequence made by a function on its first read (then kept).

    For Trace parts that only a page shows (an analyzer view's term
    statistics): an evaluation never pays for them. Compares equal to the
    tuple it holds and pickles as that tuple.
    """

    __slots__ = ("_make", "_items")

    def __init__(self, make: Callable[[], Iterable[_T]]) -> None:
        self._make: Callable[[], Iterable[_T]] | None = make
        self._items: tuple[_T, ...] | None = None

    def _made(self) -> tuple[_T, ...]:
        if self._items is None:
            make = self._make
            self._items = tuple(make()) if make is not None else ()
            self._make = None
        return self._items

    def __len__(self) -> int:
        return len(self._made())

    @overload
    def __getitem__(self, i: int) -> _T: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[_T, ...]: ...

    def __getitem__(self, i: int | slice) -> _T | tuple[_T, ...]:
        return self._made()[i]

    def __iter__(self) -> Iterator[_T]:
        return iter(self._made())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyTuple):
            return self._made() == other._made()
        if isinstance(other, (tuple, list)):
            return list(self._made()) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._made())

    def __repr__(self) -> str:
        return repr(self._made())

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (self._made(),))


class LazyMapping(Mapping[str, _T]):
    """A read-only mapping made by a function on its first read (then kept).

    A Trace's chunk table (the chunks its stages name) and its rounded
    timings, made only when a page or the JSON reads them. Compares as a
    mapping; pickles as a dict.
    """

    __slots__ = ("_make", "_data")

    def __init__(self, make: Callable[[], Mapping[str, _T]]) -> None:
        self._make: Callable[[], Mapping[str, _T]] | None = make
        self._data: Mapping[str, _T] | None = None

    def _made(self) -> Mapping[str, _T]:
        if self._data is None:
            make = self._make
            self._data = make() if make is not None else {}
            self._make = None
        return self._data

    def __getitem__(self, key: str) -> _T:
        return self._made()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())

    def __repr__(self) -> str:
        return repr(self._made())

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self._made()),))


def hit_column(hits: Sequence[Hit], name: str) -> Sequence[Any]:
    """Field ``name`` of every hit, in order: :meth:`Hits.column`, or read from each Hit."""
    if isinstance(hits, Hits):
        return hits.column(name)
    return [getattr(h, name) for h in hits]


#: Class-level values of Hit's two mapping fields when a hit has none (the
#: other defaults are class attributes already). Read-only like every Hit
#: field: the dataclass is frozen and nothing writes into a hit's mappings.
_HIT_DEFAULTS: dict[str, Any] = {"list_ranks": {}, "contributions": {}}
for _name, _value in _HIT_DEFAULTS.items():
    setattr(Hit, _name, _value)

_HIT_FIELD_ORDER: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Hit))
_HIT_FIELDS = frozenset(_HIT_FIELD_ORDER)


@dataclass(frozen=True)
class TermStat:
    """One query term as the index sees it (the analyzer view)."""

    term: str
    qtf: int
    df: int
    idf: float | None

    @property
    def unknown(self) -> bool:
        return self.df == 0


@fast_init
@dataclass(frozen=True)
class AnalyzerView:
    """The query as an analyzer cuts it, with each term's df/idf."""

    analyzer: str
    idf_form: str
    n_docs: int
    terms: Sequence[TermStat]
    #: ``auto`` only: ``(run of the query, analyzer used on it, its terms)`` per script run.
    segments: tuple[tuple[str, str, tuple[str, ...]], ...] = ()

    @property
    def zero_df_terms(self) -> tuple[str, ...]:
        return tuple(t.term for t in self.terms if t.df == 0)


@fast_init
@dataclass(frozen=True)
class RetrieverList:
    """One retriever's ranked list for one query."""

    name: str
    method: str
    analyzer: str | None
    hits: Sequence[Hit]
    n_candidates: int
    status: StageStatus = "ok"
    message: str = ""
    model: str | None = None
    analyzer_view: AnalyzerView | None = None
    params: Mapping[str, Any] = field(default_factory=dict)


@fast_init
@dataclass(frozen=True)
class FusionResult:
    """Several lists fused into one; ``union`` = distinct candidates seen."""

    method: str
    hits: Sequence[Hit]
    union: int
    inputs: tuple[str, ...]
    params: Mapping[str, Any] = field(default_factory=dict)


@fast_init
@dataclass(frozen=True)
class RetrievalStage:
    lists: tuple[RetrieverList, ...]
    fused: FusionResult | None
    hits: Sequence[Hit]  # what the next stage receives (fused, or the single list)


@fast_init
@dataclass(frozen=True)
class RerankStage:
    method: str
    label: str
    status: StageStatus
    hits: Sequence[Hit]
    shortlist: int
    message: str = ""
    model: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)


@fast_init
@dataclass(frozen=True)
class GateStage:
    """Threshold + max-kept. ``refused`` when nothing passes."""

    metric: Literal["distance", "score", "none"]
    threshold: float | None
    max_kept: int | None
    kept: Sequence[Hit]
    rejected: Sequence[Hit]
    refused: bool
    reason: str = ""
    status: StageStatus = "ok"


# ----------------------------------------------------------------- context


@dataclass(frozen=True)
class Source:
    """One candidate as the context stage treated it."""

    n: int | None  # the [n] it is cited as, None when not included
    chunk_id: str
    doc_id: str
    title: str
    section: str
    start: int
    end: int
    locator: str  # "#char=start,end"
    quote: str  # the text placed in the prompt (content, possibly capped/cut)
    tokens: int
    status: Literal["included", "cut", "dropped"]
    reason: str = (
        ""  # budget | duplicate | gate | cap | text-unavailable (an imported hit without text)
    )
    cut_at: int | None = None  # char offset in the document where the quote was cut
    duplicate_of: str | None = None  # chunk id of the kept source it near-duplicates


@dataclass(frozen=True)
class ContextStage:
    status: StageStatus
    policy: str
    ordering: str
    budget_tokens: int
    sources: tuple[Source, ...]
    system_text: str = ""
    user_text: str = ""
    prompt_text: str = ""
    tokens_before: int | None = None
    tokens_after: int | None = None
    truncated: bool = False
    question_cut: bool = False
    actual_input_text: str = ""
    input_ids: tuple[int, ...] = ()
    full_ids: tuple[int, ...] = ()
    prompt_sha256: str | None = None
    ids_sha256: str | None = None
    tokenizer: str | None = None
    message: str = ""


# -------------------------------------------------------------- generation


@dataclass(frozen=True)
class GenerationStage:
    """Greedy generation. Skipped/unavailable runs carry nulls, never zeros."""

    status: StageStatus
    model: str | None
    answer: str | None = None
    seconds: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    model_sha256: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    cached: bool = False
    message: str = ""


# ----------------------------------------------------------------- support


@dataclass(frozen=True)
class Evidence:
    """The best evidence window (1–3 consecutive sentences) of one source for one claim.

    ``sentence`` is the window's text and ``start``/``end`` its document offsets; ``spans``
    holds the document offsets of every sentence in it. ``score`` equals ``p_supported``.
    """

    n: int
    chunk_id: str
    sentence: str
    start: int
    end: int
    overlap: float
    cosine: float | None
    score: float
    missing_numbers: tuple[str, ...] = ()
    judge: float | None = None
    missing_terms: tuple[str, ...] = ()  # the claim's answer terms this window lacks
    spans: tuple[tuple[int, int], ...] = ()  # document offsets of each sentence of the window
    p_supported: float | None = None
    contradiction: str = ""  # what in the window contradicts the claim ("" when nothing)


@dataclass(frozen=True)
class Claim:
    text: str
    start: int
    end: int
    citations: tuple[int, ...]
    verdict: Literal[
        "supported",
        "supported-elsewhere",
        "unsupported",
        "uncited",
        "invalid-citation",
        "contradicted",
        "not-a-claim",
    ]
    evidence: tuple[Evidence, ...]
    numbers: tuple[str, ...] = ()
    numbers_in_no_source: tuple[str, ...] = ()
    reason: str = ""
    p_supported: float | None = None  # the best source's P(supported); None for not-a-claim


@dataclass(frozen=True)
class SupportStage:
    status: StageStatus
    claims: tuple[Claim, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)
    message: str = ""


# ------------------------------------------------------------------- trace


@dataclass(frozen=True)
class IndexStamp:
    """What an index was built from; querying with another model is an error."""

    pipeline_version: str
    chunker_signature: str
    corpus_fingerprint: str
    n_documents: int
    n_chunks: int
    embedding_model: str | None = None
    dimension: int | None = None
    normalized: bool | None = None


@dataclass(frozen=True)
class GoldView:
    """Where the gold evidence is at each stage (for the verdict line)."""

    needles: tuple[Needle, ...]
    in_corpus: tuple[bool, ...]
    chunk_ids: tuple[tuple[str, ...], ...]  # per needle: chunks wholly containing it
    stage_ranks: Mapping[
        str, tuple[int | None, ...]
    ]  # stage -> per needle best rank (None = absent)
    lost_at: str  # first stage where gold was lost, or "" when it reached the answer
    explanation: str = ""
    needle_losses: tuple[str, ...] = ()  # per needle: stage code where it was lost, "" if not
    needle_reasons: tuple[str, ...] = ()  # per needle: the English reason behind the code


@fast_init
@dataclass(frozen=True)
class Trace:
    """Everything one question did in one pipeline run."""

    question: str
    config: Mapping[str, Any]
    index_stamp: IndexStamp
    chunking: ChunkingDiagnostics
    retrieval: RetrievalStage
    rerank: RerankStage
    gate: GateStage
    context: ContextStage
    generation: GenerationStage
    support: SupportStage
    chunks: Mapping[str, Chunk]
    timings_ms: Mapping[str, float]
    gold: GoldView | None = None
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return to_jsonable(self)

    def to_json(self, **kwargs: Any) -> str:
        return dumps(self, **kwargs)
