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
only with the endpoint whose entry names it (:func:`endpoint_key_env`) — a visitor cannot
make the server send another of its secrets, nor send a listed key to another listed
server. On a shared server a visitor names no key variable at all: the endpoint in use
brings its own. The model name ``openai:…`` itself is harmless without an accepted
endpoint. A tokenizer (``generation.tokenizer``) follows the model paths' rule.

**One path rule.** Every path a visitor types (a model path, a Qdrant folder, on a shared
server a dataset folder or a label store) is resolved once by :func:`resolve_inside` —
``~`` expanded, a relative path joined to the allow-listed root (never to the server's
working directory), ``..`` and symlinks resolved — and the resolved path is what is then
opened (:func:`accepted_value`, :func:`place_path`). A path holding a NUL byte, a lone
surrogate (not UTF-8), a name over 255 bytes or over 4096 bytes in all is refused with one
line (:func:`path_problem`). Messages quote the path as typed, never the server's folders
(:func:`as_typed`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from .config_checks import ENDPOINT_PREFIX
from .types import Notice
from .wording import NoticeError, declare, english, notice

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
WHERE_KEY_PAIRED = declare("modelnames.where.key_paired", "variable")
WHERE_UNSET = declare("modelnames.where.unset", "variable")
#: A typed place a shared server does not open (:func:`place_path`); ``what`` a notice.
PLACE_REFUSED = declare("modelnames.place_refused", "mode", "what", "where")
PLACE_DATASET = declare("modelnames.place.dataset")
PLACE_LABELS = declare("modelnames.place.labels")
#: A typed path that cannot name a file here (:func:`path_problem`); ``why`` a notice.
PATH_BAD = declare("modelnames.path.bad", "what", "path", "why")
PATH_NUL = declare("modelnames.path.nul")
PATH_NOT_UTF8 = declare("modelnames.path.not_utf8")
PATH_TOO_LONG = declare("modelnames.path.too_long", "limit")
PATH_NAME_TOO_LONG = declare("modelnames.path.name_too_long", "limit")
#: The longest path and path component (bytes of UTF-8) a typed path may have (Linux's
#: ``PATH_MAX`` less its closing NUL, and ``NAME_MAX``).
PATH_MAX_BYTES = 4095
NAME_MAX_BYTES = 255
#: How much of a refused path a message quotes (characters).
_SHOWN_CHARS = 60


def models_folder(env: Mapping[str, str] | None = None) -> str | None:
    """The allow-listed folder (resolved), or None when :data:`MODELS_ENV` is unset or empty."""
    return _root((os.environ if env is None else env).get(MODELS_ENV, ""))


def shown_path(text: str) -> str:
    """``text`` quoted for a message: ``repr`` of its first :data:`_SHOWN_CHARS` characters."""
    return repr(text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "…")


def path_problem(text: str, what: str | Notice = "path") -> Notice | None:
    """Why ``text`` cannot name a file here (a NUL byte, not UTF-8, a component over
    :data:`NAME_MAX_BYTES` or the whole over :data:`PATH_MAX_BYTES` bytes); None when it can.
    ``what`` (a key or a ``place.*`` notice) names the field in the message."""
    why: Notice | None = None
    if "\x00" in text:
        why = notice(PATH_NUL)
    else:
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError:
            why = notice(PATH_NOT_UTF8)
        else:
            if len(raw) > PATH_MAX_BYTES:
                why = notice(PATH_TOO_LONG, limit=PATH_MAX_BYTES)
            elif any(len(part) > NAME_MAX_BYTES for part in raw.split(b"/")):
                why = notice(PATH_NAME_TOO_LONG, limit=NAME_MAX_BYTES)
    return None if why is None else notice(PATH_BAD, what=what, path=shown_path(text), why=why)


def resolve_inside(root: str | None, text: str) -> str | None:
    """The path ``text`` names, resolved once, when it lies strictly inside ``root`` (itself
    resolved); None when not (no root, empty, a bad shape, or outside).

    ``~`` is expanded, a relative path is joined to ``root`` (never to the working
    directory), ``..`` and symlinks are resolved: the result is the path to open.
    """
    if root is None or not text or path_problem(text) is not None:
        return None
    resolved = os.path.realpath(os.path.join(root, os.path.expanduser(text)))
    if path_problem(resolved) is not None:  # joined to the root, it grew too long
        return None
    inside = resolved != root and resolved.startswith(root.rstrip(os.sep) + os.sep)
    return resolved if inside else None


def _root(value: str) -> str | None:
    """The allow-listed folder an environment variable's ``value`` names (resolved), or None."""
    value = value.strip()
    return os.path.realpath(os.path.expanduser(value)) if value else None


def as_typed(said: Any, resolved: str, typed: str, root: str, variable: str) -> Any:
    """``said`` (a notice or English text) naming the path as the visitor typed it: the
    ``resolved`` path replaced by ``typed`` and any other mention of ``root`` by
    ``$variable``, in every text param (nested notices too)."""
    return _replaced(said, ((resolved, typed), (root, f"${variable}")))


def without_root(said: Any, kind: str, env: Mapping[str, str] | None = None) -> Any:
    """On a shared server, ``said`` (a notice, English text or a path) with the ``kind``
    place's root written as its variable (``$RAG_INSPECTOR_LABELS/…``); elsewhere unchanged."""
    root, variable = place_root(kind, env)
    if root is None or not shared_mode(env):
        return said
    return _replaced(said, ((root, f"${variable}"),))


def shown_place(kind: str, path: str, env: Mapping[str, str] | None = None) -> str:
    """``path`` as a visitor of a shared server sees it: relative to the ``kind`` place's root
    when inside it (what they would type), else with the root written as its variable;
    elsewhere unchanged."""
    root, _ = place_root(kind, env)
    if root is not None and shared_mode(env) and path.startswith(root.rstrip(os.sep) + os.sep):
        return path[len(root.rstrip(os.sep)) + 1 :]
    return str(without_root(path, kind, env))


def _replaced(said: Any, pairs: tuple[tuple[str, str], ...]) -> Any:
    if isinstance(said, Notice):
        return Notice(said.code, {k: _replaced(v, pairs) for k, v in said.params.items()})
    if not isinstance(said, str):
        return said
    for old, new in pairs:
        if old:
            said = said.replace(old, new)
    return said


def _qdrant_value(key: str, text: str, env: Mapping[str, str]) -> tuple[str, Notice | None]:
    """The Qdrant value to use for a visitor's ``text`` (a folder: resolved) and why it is
    refused (None: allowed or empty)."""
    if not text:
        return text, None
    if key == "retrieval.qdrant_path":
        if (bad := path_problem(text, key)) is not None:
            return text, bad
        folder = _root(env.get(QDRANT_PATH_ENV, ""))
        if (resolved := resolve_inside(folder, text)) is not None:
            return resolved, None
        where = notice(WHERE_FOLDER_INSIDE if folder else WHERE_NO_FOLDER, variable=QDRANT_PATH_ENV)
    else:
        listed = env.get(QDRANT_URLS_ENV)
        urls = (
            tuple(u.strip().rstrip("/") for u in listed.split(",") if u.strip())
            if listed is not None
            else DEFAULT_QDRANT_URLS
        )
        if text.rstrip("/") in urls:
            return text, None
        where = notice(WHERE_SERVERS, variable=QDRANT_URLS_ENV, urls=", ".join(urls) or "none")
    return text, notice(REFUSED_PLACE, key=key, where=where)


def allowed_endpoints(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``{base URL: key variable or ""}`` from :data:`ENDPOINTS_ENV` (unset: none)."""
    value = (os.environ if env is None else env).get(ENDPOINTS_ENV, "")
    out: dict[str, str] = {}
    for entry in value.split(","):
        url, _, var = entry.strip().partition("=")
        if url.strip():
            out[url.strip().rstrip("/")] = var.strip()
    return out


def endpoint_key_env(endpoint: str, env: Mapping[str, str] | None = None) -> str | None:
    """The key variable the :data:`ENDPOINTS_ENV` entry of ``endpoint`` names ("" for none), or
    None when ``endpoint`` is not listed."""
    return allowed_endpoints(env).get(str(endpoint or "").strip().rstrip("/"))


def key_env_usable(endpoint: str, key_env: str, env: Mapping[str, str] | None = None) -> bool:
    """Whether a request to ``endpoint`` may send the key held in ``key_env`` (the one key rule,
    checked where every request starts: ``rag_core.models.endpoint``).

    Yes when the endpoint's entry names ``key_env``; no when another entry names it (a listed
    key goes to its own endpoint only) or on a shared server (visitors use only the paired
    key); a variable no entry names is the operator's own choice (the CLI, their sidebar).
    """
    env = os.environ if env is None else env
    listed = allowed_endpoints(env)
    if key_env and listed.get(str(endpoint).strip().rstrip("/")) == key_env:
        return True
    return not shared_mode(env) and key_env not in set(listed.values())


def _endpoint_value(key: str, text: str, env: Mapping[str, str], endpoint: str) -> Notice | None:
    """Why a visitor may not set an endpoint field to ``text`` (None: allowed or empty); a key
    variable only as the one the entry of ``endpoint`` (the endpoint in use) names."""
    if not text:
        return None
    if key == "generation.endpoint":
        listed = allowed_endpoints(env)
        if text.rstrip("/") in listed:
            return None
        where = notice(WHERE_ENDPOINTS, variable=ENDPOINTS_ENV, listed=", ".join(listed) or "none")
        return notice(REFUSED_PLACE, key=key, where=where)
    if endpoint_key_env(endpoint, env) == text:
        return None
    # the same words whether the variable exists, is set, or is listed for another endpoint
    return notice(REFUSED_PLACE, key=key, where=notice(WHERE_KEY_PAIRED, variable=ENDPOINTS_ENV))


def refusal(key: str, value: Any, env: Mapping[str, str] | None = None) -> str | None:
    """Why a visitor may not set ``key = value``, in English (None when allowed or ``key``
    names no model or place); :func:`refusal_notice` gives it as a notice."""
    why = refusal_notice(key, value, env)
    return english(why) if why is not None else None


def refusal_notice(
    key: str, value: Any, env: Mapping[str, str] | None = None, *, endpoint: str = ""
) -> Notice | None:
    """Why a visitor may not set ``key = value`` (None when allowed or ``key`` names no model or
    place); ``endpoint``: the endpoint in use, for ``generation.api_key_env``.

    The message depends on ``key`` and the allow-list only, never on whether
    ``value`` exists on disk or names a set variable.
    """
    return accepted_value(key, value, env, endpoint=endpoint)[1]


def accepted_value(
    key: str, value: Any, env: Mapping[str, str] | None = None, *, endpoint: str = ""
) -> tuple[Any, Notice | None]:
    """The value to use for a visitor's ``key = value`` — a path resolved once inside its
    root (what is then opened), anything else unchanged — and why it is refused (None when
    allowed or ``key`` names no model or place)."""
    env = os.environ if env is None else env
    text = (value if isinstance(value, str) else str(value)).strip()
    if key in ("retrieval.qdrant_path", "retrieval.qdrant_url"):
        return _qdrant_value(key, text, env)
    if key in ("generation.endpoint", "generation.api_key_env"):
        return value, _endpoint_value(key, text, env, endpoint)
    if key == "generation.model" and text.startswith(ENDPOINT_PREFIX) and len(text) > 7:
        return value, None  # a name only: the endpoint it needs is the door
    if key not in BUNDLED or text in BUNDLED[key]:
        return value, None
    if (bad := path_problem(text, key)) is not None:
        return value, bad
    folder = models_folder(env)
    if (resolved := resolve_inside(folder, text)) is not None:
        return resolved, None
    names: str | Notice = ", ".join(repr(n) for n in BUNDLED[key] if n) or notice(NONE_BUNDLED)
    where = notice(WHERE_PATH_INSIDE if folder is not None else WHERE_NO_PATH, variable=MODELS_ENV)
    return value, notice(REFUSED_MODEL, key=key, names=names, where=where)


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


def place_root(kind: str, env: Mapping[str, str] | None = None) -> tuple[str | None, str]:
    """The allow-listed root of a ``kind`` place (resolved; None when unset) and its variable."""
    if kind not in PLACES:
        raise ValueError(f"unknown place kind {kind!r}; valid choices: {', '.join(PLACES)}")
    variable = PLACES[kind][0]
    return _root((os.environ if env is None else env).get(variable, "")), variable


def place_path(kind: str, text: str, env: Mapping[str, str] | None = None) -> str:
    """The path to open for ``text`` typed as a ``kind`` place (:data:`PLACES`: ``dataset``,
    ``labels``).

    Any mode: a path that cannot name a file (:func:`path_problem`) is refused. On a shared
    server the path is resolved once against the kind's root (:func:`resolve_inside`) and
    must lie strictly inside it; the resolved path is returned, to be opened as is. The
    message names the root's variable only, so it reads the same whether the path exists,
    is a folder, or is an SQLite file. Elsewhere ``text`` is returned as typed (an
    operator's own app opens any path).

    Raises:
        NoticeError: The path is refused (``modelnames.path.bad``, ``modelnames.place_refused``).
    """
    root, variable = place_root(kind, env)
    env = os.environ if env is None else env
    text = text.strip()
    what = notice(PLACES[kind][1])
    if (bad := path_problem(text, what)) is not None:
        raise NoticeError(bad)
    if not shared_mode(env):
        return text
    if (resolved := resolve_inside(root, text)) is not None:
        return resolved
    where = notice(WHERE_PATH_INSIDE if root is not None else WHERE_UNSET, variable=variable)
    raise NoticeError(notice(PLACE_REFUSED, mode=MODE_ENV, what=what, where=where))


def _shared_notice(key: str, why: Notice) -> Notice:
    """The shared-server wording of an address refusal ``why`` of ``key``."""
    p = why.params
    if why.code == REFUSED_MODEL:
        return notice(SHARED_MODEL, key=key, mode=MODE_ENV, names=p["names"], where=p["where"])
    if why.code == REFUSED_PLACE:
        return notice(SHARED_PLACE, key=key, mode=MODE_ENV, where=p["where"])
    return why  # a path that cannot name a file: said as is


def shared_restrict_noticed(
    values: Mapping[str, Any], base: Mapping[str, Any], env: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], list[Notice]]:
    """In shared mode, the typed config values (flat keys) a visitor may not set put back to
    ``base``'s, with one message each, and paths resolved once inside their roots (what is
    opened); outside shared mode ``values`` unchanged.

    The same rule as the address (:func:`refusal`): model paths inside
    ``$RAG_INSPECTOR_MODELS``, Qdrant folders inside ``$RAG_INSPECTOR_QDRANT``,
    servers listed in ``$RAG_INSPECTOR_QDRANT_URLS``, endpoints listed in
    ``$RAG_INSPECTOR_ENDPOINTS``. No key variable is a visitor's: the one the endpoint in
    use is listed with is used ("" when none), whatever was typed.
    """
    env = os.environ if env is None else env
    out = dict(values)
    if not shared_mode(env):
        return out, []
    problems: list[Notice] = []
    for key, value in values.items():
        if key == "generation.api_key_env" or value in ("", None):
            continue
        used, why = accepted_value(key, value, env)
        if why is None:
            out[key] = used
        elif value != base.get(key):
            out[key] = base.get(key)
            problems.append(_shared_notice(key, why))
    if "generation.api_key_env" in values:
        typed = str(values["generation.api_key_env"] or "").strip()
        paired = endpoint_key_env(str(out.get("generation.endpoint") or ""), env) or ""
        out["generation.api_key_env"] = paired
        if typed not in ("", paired, base.get("generation.api_key_env")):
            where = notice(WHERE_KEY_PAIRED, variable=ENDPOINTS_ENV)
            problems.append(
                notice(SHARED_PLACE, key="generation.api_key_env", mode=MODE_ENV, where=where)
            )
    return out, problems


def restrict_noticed(
    overrides: Mapping[str, Any],
    env: Mapping[str, str] | None = None,
    base: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], list[Notice]]:
    """``overrides`` without the model names a visitor may not set, and one notice per refused
    key (for a page to word); paths come back resolved once inside their roots (what is opened).

    ``base`` (flat keys) is the config the overrides apply to: its endpoint is the one in use
    when the overrides name none. A key variable is kept only when it is the one the endpoint
    in use is listed with; when the overrides change the endpoint, the key variable becomes
    that one ("" when none), so no other key follows a link to a listed server.
    """
    base = base or {}
    kept: dict[str, Any] = {}
    problems: list[Notice] = []
    for key, value in overrides.items():
        if key == "generation.api_key_env":
            continue
        used, why = accepted_value(key, value, env)
        if why is None:
            kept[key] = used
        else:
            problems.append(why)
    endpoint = str(kept.get("generation.endpoint", base.get("generation.endpoint")) or "")
    paired = endpoint_key_env(endpoint, env) or ""
    if "generation.api_key_env" in overrides:
        value = overrides["generation.api_key_env"]
        why = refusal_notice("generation.api_key_env", value, env, endpoint=endpoint)
        if why is None:
            kept["generation.api_key_env"] = value
            return kept, problems
        problems.append(why)
    if "generation.endpoint" in kept and base.get("generation.api_key_env", "") != paired:
        kept["generation.api_key_env"] = paired
    return kept, problems
