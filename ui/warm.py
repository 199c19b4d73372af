"""The server's warm-up: what the first question would wait for, done as the server starts.

``serve.py`` (what ``make run`` starts) hands :func:`lifespan` to Streamlit's ASGI app
(``st.App``). Its one background thread builds the bundled corpus's index and the start
configuration's model-free stages (on a neutral query per language, so no question's own
result is computed ahead of the user), loads the start configuration's generator and, when
it enforces citations, its classified vocabulary; then it starts the lecture gallery's preparer
(``ui.gallery``) and prints one line saying what is ready and how long it took. A session that
asks before then waits for the same load (the model cache's lock), never for a second one.

On a fresh server this takes 7.6–7.9 s on two cores (1.5–1.6 s of stages, 6.0–6.3 s for the
generator); a question asked after the line is printed waits for no load
(``bench/first_screen.py``).
``RAG_WARM=0`` turns it off.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

#: ``RAG_WARM=0`` turns the warm-up off.
ENV = "RAG_WARM"
#: The line the warm-up ends with (``bench/first_screen.py`` waits for it).
READY = "warm-up done"
#: A query in each language of the bundled corpus: its analyzers and indexes are built, while
#: no sample question's own retrieval is computed ahead of the user.
QUERIES = ("retrieval", "검색")


def warm(say: Callable[[str], None] = print) -> str:
    """Warm this process for the start configuration (``ui.sidebar.start_config``): the
    sample corpus's stages first (a page opened at once needs them first; loading the model
    first delayed them from 4 s to 6 s), then its generator; returns the line it says. A
    missing model is said, not raised: its page says it again."""
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
    if name != models.NO_GENERATOR and not is_endpoint_model(name):
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
    """Streamlit's start-up hook: start the warm-up thread (unless ``RAG_WARM=0``) and serve."""
    if os.environ.get(ENV, "1") != "0":
        threading.Thread(target=_warm_quietly, name="rag-warm", daemon=True).start()
    yield
