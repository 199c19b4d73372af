"""kill -9 during 500 label saves of two annotators (issues 27, 41): none acknowledged is lost,
each is stored as sent, in its annotator's own state.

A child process saves through the Label page's own button callback
(``ui.label.saving.save``: the stored label read, the optimistic version check, then
``LabelStore.add``/``change``), printing one line per confirmation it got back. The test kills
it with SIGKILL four times at random confirmations (the child is then inside its next save),
starts it again from the first unconfirmed save, and finally reads the store: every confirmed
save is an event with exactly the grade, note, annotator and span sent, every event is one
that was sent, each span's label in each annotator's state is that annotator's last save of it
(and the merge rule ``latest`` the last save of anyone), and SQLite's integrity check is ok.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from helpers.paths import ROOT

from rag_core.gold.store import LabelStore

N_SAVES = 500
N_SPANS = 50
KILLS = 4

CHILD = r"""
import json, sys
from rag_core.gold.store import LabelStore
from rag_core.types import Document
from ui.label import keys as K
from ui.label import saving

path, plan_file, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
plan = json.loads(open(plan_file, encoding="utf-8").read())
doc = Document(plan["doc_id"], "kill", plan["text"])
store = LabelStore(path)
for i in range(first, len(plan["saves"])):
    s = plan["saves"][i]
    state = {K.K_LAB_GRADE: s["grade"], K.K_LAB_NOTE: s["note"], K.K_LAB_ANNOTATOR: s["who"]}
    key = ("kill", "q1", doc.doc_id, s["start"], s["end"])
    change = saving.save(state, store, key, doc)
    flash = change.values.get(K.K_LAB_FLASH)
    code = flash.key if flash is not None else change.values.get(K.K_LAB_SAVE_ERROR, "none")
    print(json.dumps({"i": i, "code": code}), flush=True)
"""

CONFIRMED = {"lab.saved", "lab.changed", "lab.unchanged"}


def _plan(seed: int = 0) -> dict:
    rng = random.Random(seed)
    text = " ".join(f"문장{k:03d} evidence" for k in range(N_SPANS))
    width = len(text) // N_SPANS
    saves = []
    for i in range(N_SAVES):
        k = rng.randrange(N_SPANS)
        note = f'save {i}: 한라산 “따옴표” "quote" 🙂 \'; DROP TABLE events; --' + "ㅋ" * (i % 40)
        saves.append(
            {
                "start": k * width,
                "end": k * width + width - 1,
                "grade": rng.randrange(4),
                "note": note,
                "who": f"ann-{rng.randrange(2)}",
            }
        )
    return {"doc_id": "d-kill", "text": text, "saves": saves}


def _child(store: Path, plan: Path, first: int) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(store), str(plan), str(first)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_kill_9_during_500_saves_loses_no_confirmed_save(tmp_path):
    plan = _plan()
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps(plan, ensure_ascii=False), encoding="utf-8")
    store_path = tmp_path / "labels.sqlite3"
    LabelStore(store_path)  # created before the first child, as the page does
    rng = random.Random(1)
    kill_at = sorted(rng.sample(range(20, N_SAVES - 20), KILLS))
    confirmed: list[int] = []
    kills = 0
    while len(confirmed) < N_SAVES:
        proc = _child(store_path, plan_file, len(confirmed))
        assert proc.stdout is not None
        killed = False
        for line in proc.stdout:
            rec = json.loads(line)
            assert rec["code"] in CONFIRMED, rec  # no save refused or failed
            assert rec["i"] == len(confirmed)
            confirmed.append(rec["i"])
            if kills < KILLS and len(confirmed) == kill_at[kills]:
                os.kill(proc.pid, signal.SIGKILL)  # inside the next save's transaction
                kills += 1
                killed = True
                break
        proc.wait(60)
        if killed:
            assert proc.returncode == -signal.SIGKILL
        else:
            err = proc.stderr.read() if proc.stderr else ""
            assert proc.returncode == 0, err
    assert kills == KILLS

    store = LabelStore(store_path)
    assert store.integrity() == "ok"
    sent = {s["note"]: s for s in plan["saves"]}
    events = store.history("kill")
    for e in events:  # every stored event is one save exactly as it was sent
        s = sent[e.note]
        assert (e.doc_id, e.start, e.end, e.grade, e.annotator) == (
            plan["doc_id"],
            s["start"],
            s["end"],
            s["grade"],
            s["who"],
        )
        assert e.text == plan["text"][s["start"] : s["end"]]
    stored = {e.note for e in events}
    lost = [i for i in confirmed if plan["saves"][i]["note"] not in stored]
    assert not lost, f"{len(lost)} confirmed saves are not in the store: {lost[:5]}"
    last: dict[tuple[int, int], dict] = {}
    mine: dict[str, dict[tuple[int, int], dict]] = {"ann-0": {}, "ann-1": {}}
    for s in plan["saves"]:
        last[(s["start"], s["end"])] = s
        mine[s["who"]][(s["start"], s["end"])] = s
    current = {(lab.start, lab.end): lab for lab in store.current("kill", state="merge:latest")}
    assert current.keys() == last.keys()
    for span, s in last.items():
        assert (current[span].grade, current[span].note) == (s["grade"], s["note"])
    for who, spans in mine.items():
        own = {(lab.start, lab.end): lab for lab in store.mine(who, "kill")}
        assert own.keys() == spans.keys() and len(own) > N_SPANS // 2
        for span, s in spans.items():
            assert (own[span].grade, own[span].note, own[span].owner) == (
                s["grade"],
                s["note"],
                who,
            )
