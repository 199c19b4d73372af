# RAG Stage Inspector — two commands: `make run` and `make test`.
# Both set up .venv on first use (idempotent, a no-op when up to date).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check
STAMP  := $(VENV)/.setup-stamp
PORT   ?= 8501

export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false
export STREAMLIT_BROWSER_GATHER_USAGE_STATS := false

.PHONY: setup prepare run test test-fast lint browser bench clean

setup: $(STAMP) browser prepare

# The default generator's one-time conversion (about a minute), with its progress here in the
# terminal rather than in the app's first screen; a no-op once done.
prepare: $(STAMP)
	$(PY) -m rag_core.models.prepare

$(STAMP): requirements.txt requirements-dev.txt requirements-nodeps.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q "torch==2.13.0"
	$(PIP) install -q -r requirements.txt -r requirements-dev.txt
	$(PIP) install -q --no-deps -r requirements-nodeps.txt
	touch $(STAMP)

# Debian's chromium + chromedriver for the real-browser tests.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-noto-cjk >/dev/null; \
	  else echo "chromium missing: run 'sudo apt-get install chromium chromium-driver fonts-noto-cjk'"; fi; }

run: $(STAMP) prepare
	$(PY) -m streamlit run serve.py --server.headless true --server.port $(PORT)

# Lint first: ruff (rules + format) and mypy, versions pinned in requirements-dev.txt.
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

test: setup lint
	RAG_REQUIRE_BROWSER=1 $(PY) -m pytest -q

test-fast: $(STAMP)
	$(PY) -m pytest -q -m "not slow and not browser"

bench: $(STAMP)
	$(PY) bench/bm25.py
	$(PY) bench/beir.py
	$(PY) bench/corpus_index.py
	$(PY) bench/models.py
	$(PY) bench/app.py

clean:
	rm -rf $(VENV) .pytest_cache
