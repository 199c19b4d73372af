"""The server's warm-up: what the first question would wait for, done before the server serves.

``serve.py`` (what ``make run`` starts) hands :func:`lifespan` to Streamlit's ASGI app
(``st.App``). Before the server answers its first request (waiting at most :data:`WAIT_S`: a
stalled load must not keep it shut), the hook builds the bundled corpus's index and the start
configuration's model-free stages (on a neutral query per language, so no question's own
result is computed ahead of the user), loads the start configuration's generator and, when it
enforces citations, its classified vocabulary; it starts the lecture gallery's preparer
(``ui.gallery``, in the background) and prints one line saying what is ready and how long it
took. Streamlit's "You can now view" line comes before it: a browser opened then waits on the
listening socket and is served once the line is out.

The hook waits rather than warming beside the first page: a page opened while the warm-up
ran (or without one) drew its stages at about 4 s and waited for the model load, its English
answer 2.8–2.9× its generation time; the warm-up alone takes 7.6–8.6 s on two cores (1.5–1.7 s
of stages, 6.0–6.9 s for the generator), after which the stages show in 0.9 s and the answer
takes 1.1–1.25× its generation (``bench/first_screen.py``). ``RAG_WARM=0`` turns it off.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

#: ``RAG_WARM=0`` turns the warm-up off.
ENV = "RAG_WARM"
#: The line the warm-up starts with.
STARTING = "warming up before serving: the sample corpus's stages, then the start generator ..."
#: The longest the server waits for the warm-up before it serves anyway (seconds).
WAIT_S = 120.0
#: Said when it does.
STILL_WARMING = (
    "warm-up still running after {s:.0f} s: serving now (a first question may wait for it)"
)
#: The line the warm-up ends with (``bench/first_screen.py`` prints it).
READY = "warm-up done"
#: A query in each language of the bundled corpus: its analyzers and indexes are built, while
#: no sample question's own retrieval is computed ahead of the user.
QUERIES = ("retrieval", "검색")


def warm(say: Callable[[str], None] = print) -> str:
    """Warm this process for the start configuration (``ui.sidebar.start_config``): the
    sample corpus's stages, then its generator unless it still needs its one-time conversion;
    returns the line it says. A missing model is said, not raised: its page says it again."""
    t0 = time.perf_counter()
    from rag_core import models, pipeline
    from rag_core.answer.citations import citation_vocab
    from rag_core.config_checks import is_endpoint_model
    from rag_core.models.generators import Generator

    from . import cache, gallery, sidebar

    config = sidebar.start_config()[0]
    corpus = cache.sample_index(gallery.SAMPLE)
    for query in QUERIES:
        pipeline.run(config, query, corpus, stop_after="gate")
    done = [f"the sample corpus's stages {time.perf_counter() - t0:.1f} s"]
    t1 = time.perf_counter()
    name, g = config.generation.model, config.generation
    local = name != models.NO_GENERATOR and not is_endpoint_model(name)
    if local and not models.prepared(name):
        # a one-time conversion takes minutes: the server must not wait for it, the page
        # shows its stages while it runs (``make run``'s setup does it beforehand)
        done.append(f"generator {name} not converted yet: the first question converts it")
    elif local:
        try:
            generator = models.get_generator(name, dtype=g.dtype)
        except models.ModelUnavailable as exc:
            done.append(f"generator {name} unavailable ({exc})")
        else:
            if isinstance(generator, Generator) and g.citations == "enforced":
                citation_vocab(generator)
            done.append(f"generator {name} {time.perf_counter() - t1:.1f} s")
    gallery.start(lambda: corpus, config)
    line = f"{READY} in {time.perf_counter() - t0:.1f} s: {'; '.join(done)}"
    say(line)
    return line


def _warm_quietly() -> None:
    try:
        warm(lambda line: print(line, file=sys.stderr, flush=True))
    except Exception as exc:  # noqa: BLE001 - a warm-up must never take the server down
        print(f"warm-up stopped: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)


@asynccontextmanager
async def lifespan(_app: Any) -> AsyncIterator[None]:
    """Streamlit's start-up hook: warm up (unless ``RAG_WARM=0``; in a worker thread, so the
    event loop stays free) for at most :data:`WAIT_S`, then serve."""
    if os.environ.get(ENV, "1") != "0":
        print(STARTING, file=sys.stderr, flush=True)
        thread = threading.Thread(target=_warm_quietly, name="rag-warm", daemon=True)
        thread.start()
        await asyncio.to_thread(thread.join, WAIT_S)
        if thread.is_alive():  # a stalled load must not keep the server shut: serve, it goes on
            print(STILL_WARMING.format(s=WAIT_S), file=sys.stderr, flush=True)
    yield
