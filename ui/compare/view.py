"""Compare page view model: one row per stage fact of two Traces, and what differs between them.

The A/B config diff other pages share is ``ui.state.config_diff``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rag_core.types import Hit, RetrieverList, Trace

from ..i18n import t, tv
from ..trace_view import destroyed_needles

#: Example B overrides (label key, text); each shows one failure mode of docs/ARCHITECTURE.md.
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("cmp.ex.char", "retrieval.analyzer=char"),
    ("cmp.ex.kiwi", "retrieval.analyzer=kiwi"),
    ("cmp.ex.header", "chunker.preset=E"),
    ("cmp.ex.overlap", "chunker.preset=B"),
    ("cmp.ex.hybrid", "retrieval.methods=bm25,dense"),
    ("cmp.ex.threshold", "retrieval.methods=dense; gate.max_distance=0.6"),
    ("cmp.ex.rerank", "rerank.method=overlap; gate.max_kept=2"),
    ("cmp.ex.hardcut", "context.policy=hard-cut; context.budget_tokens=256"),
)


def gold_rank_text(trace: Trace, stage: str) -> str:
    """Best gold rank at ``stage``: ``—`` without gold, ``✗`` absent, ``[n]`` in the context."""
    if trace.gold is None:
        return "—"
    ranks = [r for r in trace.gold.stage_ranks.get(stage, ()) if r is not None]
    if not ranks:
        return "✗"
    best = min(ranks)
    return f"[{best}]" if stage == "context" else str(best)


def _verdict_counts(trace: Trace) -> dict[str, int]:
    counts: dict[str, int] = {}
    for cl in trace.support.claims:
        counts[cl.verdict] = counts.get(cl.verdict, 0) + 1
    return counts


def stage_facts(trace: Trace, lang: str, answer_mode: str = "") -> dict[str, str]:
    """One short text per stage fact (row label → value), the rows of the summary table.

    ``answer_mode``: the citation-mode label shown after an answer.
    """
    out: dict[str, str] = {}
    g = trace.gold
    verdict = tv("loss", g.lost_at, lang) if g is not None and g.lost_at else t("cmp.reached", lang)
    out[t("cmp.row.verdict", lang)] = "—" if g is None else verdict
    d = trace.chunking
    out[t("cmp.row.chunking", lang)] = f"{trace.index_stamp.chunker_signature} · {d.n_chunks}"
    out[t("chk.over_window", lang, window=d.encoder_window)] = str(len(d.over_window))
    out[t("cmp.row.destroyed", lang)] = str(len(destroyed_needles(trace))) if g is not None else "—"
    if g is not None:
        over = set(d.over_window)
        gold_over = any(cid in over for ids in g.chunk_ids for cid in ids)
        out[t("cmp.row.gold_over", lang, window=d.encoder_window)] = t(
            "cmp.yes" if gold_over else "cmp.no", lang
        )
    for lst in trace.retrieval.lists:
        status = "" if lst.status == "ok" else f" ({tv('status', lst.status, lang)})"
        star = gold_rank_text(trace, "retrieval:" + lst.name)
        out[t("cmp.row.list", lang, name=lst.name)] = (
            f"{len(lst.hits)} / {lst.n_candidates}{status} · ★ {star}"
        )
    if trace.retrieval.fused is not None:
        fused = trace.retrieval.fused.method
        out[t("cmp.row.fusion", lang)] = f"{fused} · ★ {gold_rank_text(trace, 'fusion')}"
    rerank = tv("rerank", trace.rerank.method, lang)
    out[t("cmp.row.rerank", lang)] = f"{rerank} · ★ {gold_rank_text(trace, 'rerank')}"
    gate = trace.gate
    kept = f"{len(gate.kept)} / {len(gate.kept) + len(gate.rejected)}"
    out[t("cmp.row.gate", lang)] = (
        t("cmp.refused", lang) if gate.refused else kept
    ) + f" · ★ {gold_rank_text(trace, 'gate')}"
    c = trace.context
    n_in = sum(1 for s in c.sources if s.status != "dropped")
    sent = f"{n_in} · {c.tokens_after}/{c.budget_tokens} tok"
    out[t("cmp.row.context", lang)] = (
        tv("status", c.status, lang) if c.status != "ok" else sent
    ) + f" · ★ {gold_rank_text(trace, 'context')}"
    out[t("cmp.row.question_cut", lang)] = t("cmp.yes" if c.question_cut else "cmp.no", lang)
    gen = trace.generation
    out[t("cmp.row.answer", lang)] = (
        f"{gen.answer} ({answer_mode})"
        if gen.status == "ok" and gen.answer
        else tv("status", gen.status, lang)
    )
    if trace.support.status == "ok":
        counts = _verdict_counts(trace)
        out[t("cmp.row.support", lang)] = (
            ", ".join(f"{tv('verdict', k, lang)} {v}" for k, v in counts.items()) or "—"
        )
    return out


def summary_rows(fa: Mapping[str, str], fb: Mapping[str, str]) -> tuple[list[list[str]], list[str]]:
    """Rows ``[fact, A, B, ≠]`` over the facts of either side, and their classes."""
    rows, classes = [], []
    for k in dict.fromkeys([*fa, *fb]):
        va, vb = fa.get(k, "—"), fb.get(k, "—")
        rows.append([k, va, vb, "≠" if va != vb else ""])
        classes.append("ri-diff" if va != vb else "")
    return rows, classes


def only_in(mine: Sequence[Hit], other: Sequence[Hit], same_chunking: bool) -> set[str] | None:
    """Chunk ids in ``mine`` but not in ``other``; ``None`` when the chunkings differ."""
    if not same_chunking:
        return None
    return {h.chunk_id for h in mine} - {h.chunk_id for h in other}


def retriever_pairs(
    a: Trace, b: Trace
) -> list[tuple[str, RetrieverList | None, RetrieverList | None]]:
    """Each retriever name of A or B (A's order first) with its list on each side (or ``None``)."""
    la = {lst.name: lst for lst in a.retrieval.lists}
    lb = {lst.name: lst for lst in b.retrieval.lists}
    return [(name, la.get(name), lb.get(name)) for name in dict.fromkeys([*la, *lb])]
