"""Reading a loader's ``LoadReport``: the one document it gave, or the one reason it refused."""

from __future__ import annotations


def only_doc(report):
    assert report.failed == (), report.failed
    assert len(report.documents) == 1
    return report.documents[0]


def only_reason(report) -> str:
    assert report.documents == ()
    assert len(report.failed) == 1
    return report.failed[0].reason
