"""``labels agreement``'s report as text: per pair and overall, then the questions that disagree
most (the CLI prints English; the pages word the same figures from ``ui/label/text.py``)."""

from __future__ import annotations

from ..evaluation.agreement import Agreement, figure_text


def agreement_text(ag: Agreement, top: int = 10) -> str:
    """The report: the unit, each pair's figures, the overall ones, the ``top`` questions."""
    level = f"{ag.confidence:.0%}"
    lines = [
        (
            f"agreement of {len(ag.annotators)} annotators ({', '.join(ag.annotators)}) on "
            f"{ag.n_questions} questions two or more labeled; unit: document span overlap "
            f"({ag.n_units} units); {ag.single} questions only one annotator labeled, not counted"
        ),
        (
            f"intervals: {level} percentile bootstrap over questions, {ag.resamples} resamples, "
            f"seed {ag.seed}"
        ),
    ]
    for p in ag.pairs:
        lines += [
            (
                f"{p.a} x {p.b}: {p.n_units} units in {p.n_questions} questions, {p.n_both} judged "
                f"by both, {p.only_a} only by {p.a}, {p.only_b} only by {p.b}"
            ),
            f"  weighted kappa ({ag.weights})   {figure_text(p.kappa)}",
            f"  Krippendorff alpha (ordinal) {figure_text(p.alpha)}",
            f"  span F1 (characters)         {figure_text(p.span_f1)}",
            f"  units only one judged        {figure_text(p.only_one, percent=True)}",
        ]
    if len(ag.pairs) > 1:
        lines += [
            "overall:",
            f"  Krippendorff alpha (ordinal) {figure_text(ag.alpha)}",
            f"  mean weighted kappa (Light)  {figure_text(ag.kappa)}",
            f"  mean span F1                 {figure_text(ag.span_f1)}",
            f"  units only one judged        {figure_text(ag.only_one, percent=True)}",
        ]
    if ag.questions and top:
        lines.append("questions, most disagreeing first:")
        for r in ag.questions[:top]:
            f1 = "" if r.span_f1 is None else f", span F1 {r.span_f1:.2f}"
            lines.append(
                f"  {r.question_set}/{r.question_id}: {r.n_units - r.n_agree} of {r.n_units} "
                f"units disagree ({r.only_one} only one judged, {r.grade_differs} grades "
                f"differ){f1}"
            )
    return "\n".join(lines)


__all__ = ["agreement_text", "figure_text"]
