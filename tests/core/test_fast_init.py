"""``rag_core.types.fast_init``: the one-call ``__init__`` of the per-query stage results."""

from __future__ import annotations

import inspect
import pickle
from dataclasses import FrozenInstanceError, dataclass, field, replace

import pytest

from rag_core.evaluation.run import QueryRun
from rag_core.types import (
    AnalyzerView,
    FusionResult,
    GateStage,
    RerankStage,
    RetrievalStage,
    RetrieverList,
    Trace,
    fast_init,
)

FAST = [AnalyzerView, RetrieverList, FusionResult, RetrievalStage, RerankStage, GateStage, Trace]
FAST.append(QueryRun)


@pytest.mark.parametrize("cls", FAST, ids=lambda c: c.__name__)
def test_same_parameters_as_the_dataclass_init(cls):
    mine = inspect.signature(cls.__init__).parameters
    theirs = inspect.signature(cls.__dataclass_init__).parameters
    assert list(mine) == list(theirs)
    for name, p in theirs.items():
        q = mine[name]
        assert q.kind == p.kind
        has_default = p.default is not inspect.Parameter.empty
        assert (q.default is not inspect.Parameter.empty) == has_default, name
        field_ = cls.__dataclass_fields__.get(name)
        if has_default and field_ is not None and field_.default_factory is None:
            assert q.default is p.default, name


@pytest.mark.parametrize("cls", FAST, ids=lambda c: c.__name__)
def test_same_instance_as_the_dataclass_init(cls):
    """Required fields given positionally, defaults left out: the same instance dict."""
    required = [
        n
        for n, p in inspect.signature(cls.__dataclass_init__).parameters.items()
        if n != "self" and p.default is inspect.Parameter.empty
    ]
    args = [f"value of {n}" for n in required]
    fast = cls(*args)
    slow = object.__new__(cls)
    cls.__dataclass_init__(slow, *args)
    assert fast.__dict__ == slow.__dict__
    assert list(fast.__dict__) == list(cls.__dataclass_fields__)
    assert fast == slow
    with pytest.raises(FrozenInstanceError):
        fast.__setattr__(required[0], "changed")
    assert pickle.loads(pickle.dumps(fast)) == fast
    assert replace(fast, **{required[0]: "other"}).__dict__[required[0]] == "other"


def test_default_factory_makes_a_new_value_each_time():
    a = RerankStage("none", "none", "ok", (), 20)
    b = RerankStage("none", "none", "ok", (), 20)
    assert a.params == {} and a.params is not b.params
    given = {"x": 1}
    assert RerankStage("none", "none", "ok", (), 20, params=given).params is given


def test_refuses_what_it_cannot_copy():
    @dataclass
    class Mutable:
        a: int

    @dataclass(frozen=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True)
    class KeywordOnly:
        a: int = field(kw_only=True)

    class Plain:
        pass

    for cls in (Mutable, Checked, KeywordOnly, Plain):
        with pytest.raises(ValueError, match="must be a frozen dataclass"):
            fast_init(cls)
