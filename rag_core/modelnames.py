"""Which model names a *visitor* may ask for (the app's URL, pasted addresses, Compare's B).

The CLI and the operator's own sidebar text field accept any local path or
hub id (``rag_core.models``). A value that arrives from outside — a query
string such as ``/?generation.model=../../etc/passwd`` — must not make the
server open arbitrary paths, nor tell the visitor whether a path exists. So
such a value is accepted only when it is

* a bundled name (:data:`BUNDLED`), or
* a path that lies, after resolving ``..`` and symlinks, inside the folder
  named by the environment variable :data:`MODELS_ENV` (unset: no folder is
  allowed).

Anything else is refused with one message built from the key and the
allowed names only: never from the file system, so it reads the same whether
the path exists or not. Pure functions; no model is loaded here.

The Qdrant retriever's location is a visitor's input too: a local-mode
folder (``retrieval.qdrant_path``) makes the server open (and create files
in) a path, and a server address (``retrieval.qdrant_url``) makes it connect
to a host. From the address a folder is accepted only inside
``$RAG_INSPECTOR_QDRANT`` (unset: none) and a server only when it is listed
in ``$RAG_INSPECTOR_QDRANT_URLS`` (comma-separated; default
``http://localhost:6333``).

An endpoint generator (``generation.model = openai:MODEL``) makes the server connect to
``generation.endpoint`` and send it the key read from the variable named by
``generation.api_key_env``. From the address an endpoint is accepted only when listed
in ``$RAG_INSPECTOR_ENDPOINTS`` (comma-separated base URLs, each optionally
``URL=KEYVAR`` to name the variable its key is in; default: none), and a key variable
only when an entry names it — a visitor cannot make the server send another of its
secrets. The model name ``openai:…`` itself is harmless without an accepted endpoint.
A tokenizer (``generation.tokenizer``) follows the model paths' rule.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from .config import ENDPOINT_PREFIX
from .types import Notice
from .wording import declare, english, notice

#: Environment variable naming the one folder whose model folders/files visitors may name.
MODELS_ENV = "RAG_INSPECTOR_MODELS"

#: The bundled choices of each config key that names a model (``""``: no model).
BUNDLED: dict[str, tuple[str, ...]] = {
    "generation.model": ("qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b", "smollm2-135m", "none"),
    "retrieval.dense_model": ("auto", "minilm", "e5-small"),
    "rerank.model": ("",),
    "retrieval.qdrant_model": ("minilm", "e5-small"),
    "generation.tokenizer": ("", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b", "smollm2-135m"),
}

#: Environment variable listing the endpoints (``URL`` or ``URL=KEYVAR``) visitors may name.
ENDPOINTS_ENV = "RAG_INSPECTOR_ENDPOINTS"

# : Environment variable naming the one folder under which visitors may name Qdrant local-mode
# folders.
QDRANT_PATH_ENV = "RAG_INSPECTOR_QDRANT"
#: Environment variable listing the Qdrant server addresses visitors may name (comma-separated).
QDRANT_URLS_ENV = "RAG_INSPECTOR_QDRANT_URLS"
DEFAULT_QDRANT_URLS = ("http://localhost:6333",)


#: Why a visitor may not set a key (a notice; :func:`refusal` gives its English): refused
#: from the address (``refused.*``) or, typed on a shared server, put back (``shared.*``).
#: ``where`` is itself a notice (``where.*``) naming the allow-list.
REFUSED_MODEL = declare("modelnames.refused.model", "key", "names", "where")
REFUSED_PLACE = declare("modelnames.refused.place", "key", "where")
SHARED_MODEL = declare("modelnames.shared.model", "key", "mode", "names", "where")
SHARED_PLACE = declare("modelnames.shared.place", "key", "mode", "where")
NONE_BUNDLED = declare("modelnames.none_bundled")
WHERE_PATH_INSIDE = declare("modelnames.where.path_inside", "variable")
WHERE_NO_PATH = declare("modelnames.where.no_path", "variable")
WHERE_FOLDER_INSIDE = declare("modelnames.where.folder_inside", "variable")
WHERE_NO_FOLDER = declare("modelnames.where.no_folder", "variable")
WHERE_SERVERS = declare("modelnames.where.servers", "variable", "urls")
WHERE_ENDPOINTS = declare("modelnames.where.endpoints", "variable", "listed")
WHERE_KEY_VARIABLES = declare("modelnames.where.key_variables", "variable", "listed")
WHERE_UNSET = declare("modelnames.where.unset", "variable")
#: A typed place a shared server does not open (:func:`place_refusal`); ``what`` a notice.
PLACE_REFUSED = declare("modelnames.place_refused", "mode", "what", "where")
PLACE_DATASET = declare("modelnames.place.dataset")
PLACE_LABELS = declare("modelnames.place.labels")


def models_folder(env: Mapping[str, str] | None = None) -> str | None:
    """The allow-listed folder (resolved), or None when :data:`MODELS_ENV` is unset or empty."""
    value = (os.environ if env is None else env).get(MODELS_ENV, "").strip()
    return os.path.realpath(os.path.expanduser(value)) if value else None


def _inside(folder: str | None, text: str) -> bool:
    """Whether ``text`` names a path strictly inside ``folder`` once ``..`` and symlinks are
    resolved."""
    if folder is None or not text:
        return False
    resolved = os.path.realpath(os.path.join(folder, os.path.expanduser(text)))
    return resolved != folder and resolved.startswith(folder.rstrip(os.sep) + os.sep)


def _qdrant_refusal(key: str, text: str, env: Mapping[str, str]) -> Notice | None:
    """Why a visitor may not point the Qdrant retriever at ``text`` (None: allowed or empty)."""
    if not text:
        return None
    if key == "retrieval.qdrant_path":
        value = env.get(QDRANT_PATH_ENV, "").strip()
        folder = os.path.realpath(os.path.expanduser(value)) if value else None
        if _inside(folder, text):
            return None
        where = notice(WHERE_FOLDER_INSIDE if folder else WHERE_NO_FOLDER, variable=QDRANT_PATH_ENV)
    else:
        listed = env.get(QDRANT_URLS_ENV)
        urls = (
            tuple(u.strip().rstrip("/") for u in listed.split(",") if u.strip())
            if listed is not None
            else DEFAULT_QDRANT_URLS
        )
        if text.rstrip("/") in urls:
            return None
        where = notice(WHERE_SERVERS, variable=QDRANT_URLS_ENV, urls=", ".join(urls) or "none")
    return notice(REFUSED_PLACE, key=key, where=where)


def allowed_endpoints(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``{base URL: key variable or ""}`` from :data:`ENDPOINTS_ENV` (unset: none)."""
    value = (os.environ if env is None else env).get(ENDPOINTS_ENV, "")
    out: dict[str, str] = {}
    for entry in value.split(","):
        url, _, var = entry.strip().partition("=")
        if url.strip():
            out[url.strip().rstrip("/")] = var.strip()
    return out


def _endpoint_refusal(key: str, text: str, env: Mapping[str, str]) -> Notice | None:
    """Why a visitor may not set an endpoint field to ``text`` (None: allowed or empty)."""
    listed = allowed_endpoints(env)
    if not text:
        return None
    if key == "generation.endpoint" and text.rstrip("/") in listed:
        return None
    if key == "generation.api_key_env" and text in {v for v in listed.values() if v}:
        return None
    code = WHERE_ENDPOINTS if key == "generation.endpoint" else WHERE_KEY_VARIABLES
    where = notice(code, variable=ENDPOINTS_ENV, listed=", ".join(listed) or "none")
    return notice(REFUSED_PLACE, key=key, where=where)


def refusal(key: str, value: Any, env: Mapping[str, str] | None = None) -> str | None:
    """Why a visitor may not set ``key = value``, in English (None when allowed or ``key``
    names no model or place); :func:`refusal_notice` gives it as a notice."""
    why = refusal_notice(key, value, env)
    return english(why) if why is not None else None


def refusal_notice(key: str, value: Any, env: Mapping[str, str] | None = None) -> Notice | None:
    """Why a visitor may not set ``key = value`` (None when allowed or ``key`` names no model or
    place).

    The message depends on ``key`` and the allow-list only, never on whether
    ``value`` exists on disk.
    """
    text = (value if isinstance(value, str) else str(value)).strip()
    if key in ("retrieval.qdrant_path", "retrieval.qdrant_url"):
        return _qdrant_refusal(key, text, os.environ if env is None else env)
    if key in ("generation.endpoint", "generation.api_key_env"):
        return _endpoint_refusal(key, text, os.environ if env is None else env)
    if key == "generation.model" and text.startswith(ENDPOINT_PREFIX) and len(text) > 7:
        return None  # a name only: the endpoint it needs is the door
    if key not in BUNDLED:
        return None
    if text in BUNDLED[key]:
        return None
    folder = models_folder(env)
    if _inside(folder, text):
        return None
    names: str | Notice = ", ".join(repr(n) for n in BUNDLED[key] if n) or notice(NONE_BUNDLED)
    where = notice(WHERE_PATH_INSIDE if folder is not None else WHERE_NO_PATH, variable=MODELS_ENV)
    return notice(REFUSED_MODEL, key=key, names=names, where=where)


# ------------------------------------------------------------------- shared-server mode

#: ``RAG_INSPECTOR_MODE=shared``: the app serves visitors (a class), so every path or server
#: typed in the app — not only those in the address — must lie inside an allow-listed root.
MODE_ENV = "RAG_INSPECTOR_MODE"
#: Environment variable naming the folder under which visitors may open BEIR/TREC folders.
DATA_ENV = "RAG_INSPECTOR_DATA"
#: Environment variable naming the folder under which visitors may open or create label stores.
LABELS_ENV = "RAG_INSPECTOR_LABELS"
#: What each typed place is checked against: its environment variable and what it names.
PLACES: dict[str, tuple[str, str]] = {
    "dataset": (DATA_ENV, PLACE_DATASET),
    "labels": (LABELS_ENV, PLACE_LABELS),
}


def shared_mode(env: Mapping[str, str] | None = None) -> bool:
    """Whether the app runs for visitors (``$RAG_INSPECTOR_MODE`` is ``shared``)."""
    value = (os.environ if env is None else env).get(MODE_ENV, "").strip().lower()
    return value == "shared"


def place_refusal(kind: str, text: str, env: Mapping[str, str] | None = None) -> str | None:
    """:func:`place_refusal_notice` in English."""
    why = place_refusal_notice(kind, text, env)
    return english(why) if why is not None else None


def place_refusal_notice(
    kind: str, text: str, env: Mapping[str, str] | None = None
) -> Notice | None:
    """Why a visitor of a shared server may not open ``text`` as a ``kind`` place
    (:data:`PLACES`: ``dataset``, ``labels``); None when allowed or not in shared mode.

    Allowed: a path strictly inside the kind's root after resolving ``..`` and
    symlinks. The message names the key and the root's variable only, so it reads
    the same whether the path exists, is a folder, or is an SQLite file.
    """
    if kind not in PLACES:
        raise ValueError(f"unknown place kind {kind!r}; valid choices: {', '.join(PLACES)}")
    env = os.environ if env is None else env
    if not shared_mode(env):
        return None
    variable, what = PLACES[kind]
    value = env.get(variable, "").strip()
    root = os.path.realpath(os.path.expanduser(value)) if value else None
    if _inside(root, text.strip()):
        return None
    where = notice(WHERE_PATH_INSIDE if root is not None else WHERE_UNSET, variable=variable)
    return notice(PLACE_REFUSED, mode=MODE_ENV, what=notice(what), where=where)


def shared_restrict(
    values: Mapping[str, Any], base: Mapping[str, Any], env: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """:func:`shared_restrict_noticed` with its messages in English."""
    out, problems = shared_restrict_noticed(values, base, env)
    return out, [english(n) for n in problems]


def shared_restrict_noticed(
    values: Mapping[str, Any], base: Mapping[str, Any], env: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], list[Notice]]:
    """In shared mode, the typed config values (flat keys) a visitor may not set put back to
    ``base``'s, with one message each; outside shared mode ``values`` unchanged.

    The same rule as the address (:func:`refusal`): model paths inside
    ``$RAG_INSPECTOR_MODELS``, Qdrant folders inside ``$RAG_INSPECTOR_QDRANT``,
    servers listed in ``$RAG_INSPECTOR_QDRANT_URLS``.
    """
    env = os.environ if env is None else env
    out = dict(values)
    if not shared_mode(env):
        return out, []
    problems: list[Notice] = []
    for key, value in values.items():
        if value == base.get(key) or value in ("", None):
            continue
        why = refusal_notice(key, value, env)
        if why is not None:
            out[key] = base.get(key)
            p = why.params
            problems.append(
                notice(SHARED_MODEL, key=key, mode=MODE_ENV, names=p["names"], where=p["where"])
                if why.code == REFUSED_MODEL
                else notice(SHARED_PLACE, key=key, mode=MODE_ENV, where=p["where"])
            )
    return out, problems


def restrict(
    overrides: Mapping[str, Any], env: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """``overrides`` without the model names a visitor may not set, and one message (English)
    per refused key."""
    kept, problems = restrict_noticed(overrides, env)
    return kept, [english(n) for n in problems]


def restrict_noticed(
    overrides: Mapping[str, Any], env: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], list[Notice]]:
    """:func:`restrict` with one notice per refused key (for a page to word)."""
    kept: dict[str, Any] = {}
    problems: list[Notice] = []
    for key, value in overrides.items():
        why = refusal_notice(key, value, env)
        if why is None:
            kept[key] = value
        else:
            problems.append(why)
    return kept, problems
