"""The server's own tokenizer and chat template over HTTP, as a prompt tokenizer (vLLM and
llama.cpp shapes), and character offsets from the token strings it returns."""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from typing import Any

from ...wording import notice
from .client import ENDPOINT_MALFORMED, EndpointClient, EndpointError

#: Token ids are stored and hashed as int32 (``rag_core.hashing.ids_sha256``).
_MAX_ID = 2**31 - 1


def _int_list(value: Any) -> list[int] | None:
    """Token ids from a /tokenize body: ints in 0 … 2**31 − 1, or llama.cpp's
    ``{"id": …, "piece": …}`` rows; None for anything else."""
    if not isinstance(value, list):
        return None
    out = []
    for v in value:
        if isinstance(v, dict):
            v = v.get("id")
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= _MAX_ID:
            return None
        out.append(v)
    return out


def _tokens(body: Any) -> list[int] | None:
    """The ids of a /tokenize reply (None when it holds no valid list)."""
    return _int_list(body.get("tokens") if isinstance(body, dict) else None)


def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-level BPE alphabet inverted: each printable stand-in char → its byte."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs, strict=True)}


_BYTE_DECODER = _byte_decoder()
_SP_BYTE = re.compile(r"<0x([0-9A-Fa-f]{2})>\Z")


def _piece_bytes(pieces: Sequence[str]) -> list[bytes] | None:
    """Each token string as the bytes it stands for: byte-level BPE (``Ġ`` = space) when every
    char is in that alphabet, else SentencePiece (``▁`` = space, ``<0x0A>`` = one byte)."""
    if all(ch in _BYTE_DECODER for p in pieces for ch in p):
        return [bytes(_BYTE_DECODER[ch] for ch in p) for p in pieces]
    out = []
    for p in pieces:
        m = _SP_BYTE.match(p)
        out.append(bytes([int(m.group(1), 16)]) if m else p.replace("\u2581", " ").encode("utf-8"))
    return out


def offsets_from_pieces(text: str, pieces: Sequence[str]) -> list[tuple[int, int]] | None:
    """Character spans of tokens in ``text`` from their token strings, or None when the
    strings do not spell ``text`` exactly (then no span is guessed)."""
    for raw in (_piece_bytes(pieces), [p.encode("utf-8") for p in pieces]):
        if raw is None:
            continue
        joined = b"".join(raw)
        lead = 1 if joined.startswith(b" ") and not text.startswith(" ") else 0
        if joined[lead:] != text.encode("utf-8"):
            continue
        spans, pos, prev = [], 0, 0
        for chunk in raw:
            pos += len(chunk)
            end = len(joined[lead : max(pos, lead)].decode("utf-8", "ignore"))
            spans.append((prev, end))
            prev = end
        return spans
    return None


class ServerTokenizer:
    """The server's own tokenizer and chat template over HTTP (vLLM and llama.cpp shapes).

    Exact ids and counts; character offsets (per-source token counts, the hard cut) come
    from the token strings the server returns (llama.cpp ``with_pieces``, vLLM
    ``return_token_strs``), checked to spell the text exactly. A server whose pieces do not
    spell the text is not used as a tokenizer (:meth:`probe` fails): no span is guessed.
    """

    #: Texts whose ids are remembered (the context stage encodes the same prompt often).
    MEMO = 256

    def __init__(self, client: EndpointClient, model: str) -> None:
        self.client = client
        self.model = model
        self.kind = ""
        self._memo: dict[tuple[str, bool], Any] = {}
        self._lock = threading.Lock()

    def _tokenize(self, text: str, *, pieces: bool = False) -> Any:
        with self._lock:
            hit = self._memo.get((text, pieces))
        if hit is not None:
            return hit
        body = self.client.request_json(
            "POST",
            "/tokenize",
            {
                "model": self.model,
                "prompt": text,
                "content": text,
                "add_special_tokens": False,
                "add_special": False,
                "with_pieces": pieces,
                "return_token_strs": pieces,
            },
            model=self.model,
        )
        with self._lock:
            if len(self._memo) >= self.MEMO:
                self._memo.clear()
            self._memo[(text, pieces)] = body
        return body

    def probe(self) -> bool:
        """Whether the server tokenises, spells its pieces and renders templates (sets
        :attr:`kind`)."""
        try:
            ids = _tokens(self._tokenize("probe"))
            if not ids:
                return False
            self.encode_offsets("Hello, world.\n안녕하세요 [1]")
            self.render("s", "u")
        except (EndpointError, AttributeError, ValueError):
            return False
        return True

    def render(self, system: str, user: str) -> str:
        """The chat template over a system and a user turn, generation prompt appended."""
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        if self.kind in ("", "llama.cpp"):
            try:
                body = self.client.request_json(
                    "POST", "/apply-template", {"messages": messages}, model=self.model
                )
                if isinstance(body, dict) and isinstance(body.get("prompt"), str):
                    self.kind = "llama.cpp"
                    return str(body["prompt"])
            except EndpointError:
                if self.kind == "llama.cpp":
                    raise
        body = self.client.request_json(
            "POST",
            "/tokenize",
            {"model": self.model, "messages": messages, "add_generation_prompt": True},
            model=self.model,
        )
        ids = _tokens(body)
        if ids is None:
            raise EndpointError(notice(ENDPOINT_MALFORMED, what="/tokenize of messages"))
        self.kind = "vllm"
        return self.decode(ids)

    def encode(self, text: str) -> list[int]:
        body = self._tokenize(text)
        ids = _tokens(body)
        if ids is None:
            raise EndpointError(notice(ENDPOINT_MALFORMED, what="/tokenize has no token list"))
        return ids

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        body = self._tokenize(text, pieces=True)
        rows = body.get("tokens") if isinstance(body, dict) else None
        ids = _int_list(rows)
        if ids is None:
            raise EndpointError(notice(ENDPOINT_MALFORMED, what="/tokenize has no token list"))
        if rows and all(isinstance(r, dict) for r in rows):
            pieces = [r.get("piece") for r in rows]
        else:
            pieces = body.get("token_strs") or []
        if not isinstance(pieces, list):
            what = "/tokenize token_strs is not a list"
            raise EndpointError(notice(ENDPOINT_MALFORMED, what=what))
        spans = None
        if len(pieces) == len(ids) and all(isinstance(p, str) for p in pieces):
            spans = offsets_from_pieces(text, pieces)
        if spans is None:
            raise EndpointError(
                notice(ENDPOINT_MALFORMED, what="/tokenize pieces do not spell the text")
            )
        return ids, spans

    def decode(self, ids: Sequence[int]) -> str:
        body = self.client.request_json(
            "POST", "/detokenize", {"model": self.model, "tokens": list(ids)}, model=self.model
        )
        if isinstance(body, dict):
            for field in ("prompt", "content"):
                if isinstance(body.get(field), str):
                    return str(body[field])
        raise EndpointError(notice(ENDPOINT_MALFORMED, what="/detokenize has no text"))
