"""A headless Streamlit session without a browser: the app's own websocket protocol.

The web client (``frontend/connection``) opens ``ws://HOST/_stcore/stream``
with the subprotocol ``streamlit``, then asks for a run with a ``BackMsg``
whose ``rerun_script`` is a ``ClientState`` (query string, page name =
the URL path of an ``st.navigation`` page, widget states). The server answers
with ``ForwardMsg``s: ``new_session`` opens a run, ``delta``s carry the
elements, and ``script_finished`` closes it (``FINISHED_SUCCESSFULLY`` for a
complete run; ``FINISHED_EARLY_FOR_RERUN`` when ``st.rerun`` started another
one). Every ``rerun_script`` carries the state of every widget on screen, as
the browser does (the value the server set with ``set_value``, else the one
this session chose, else the widget's default): without them Streamlit would
reset keyed widgets to their defaults. A button press is that plus the
button's ``trigger_value=True``; a button drawn inside an ``st.fragment`` is
pressed as the browser does, with the fragment's id (only that fragment reruns
and the run ends with ``FINISHED_FRAGMENT_RUN_SUCCESSFULLY``). Used by
``bench/sessions.py`` and ``bench/label_save.py`` to time the server alone.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates

_STRING_CHOICE = ("selectbox", "radio")
_STRING_TEXT = ("text_input", "text_area")


def widget_state(etype: str, el, known: WidgetState | None) -> WidgetState | None:
    """The state the browser would send for element ``el`` of type ``etype`` (None: a type not
    followed)."""
    out = WidgetState(id=el.id)
    if etype in _STRING_CHOICE:
        if el.set_value and el.HasField("raw_value"):
            out.string_value = el.raw_value
        elif known is not None:
            return known
        elif el.HasField("default"):
            out.string_value = el.options[el.default]
        else:
            return None
    elif etype in _STRING_TEXT or etype == "number_input":
        attr = "string_value" if etype in _STRING_TEXT else "double_value"
        if el.set_value and el.HasField("value"):
            setattr(out, attr, el.value)
        elif known is not None:
            return known
        elif el.HasField("default"):
            setattr(out, attr, el.default)
        else:
            return None
    elif etype == "slider" and not el.options:
        if known is not None and not el.set_value:
            return known
        out.double_array_value.data.extend(el.value if el.set_value else el.default)
    elif etype == "checkbox":
        if known is not None and not el.set_value:
            return known
        out.bool_value = el.value if el.set_value else el.default
    elif etype == "multiselect":
        if known is not None and not el.set_value:
            return known
        out.string_array_value.data.extend(
            el.raw_values if el.set_value else [el.options[i] for i in el.default]
        )
    else:
        return None
    return out


@dataclass
class Run:
    """What one script run sent: its status, seconds from the request, and the text/widgets it
    showed."""

    status: int
    seconds: float
    texts: list[str] = field(default_factory=list)
    widgets: dict[str, tuple[str, str]] = field(
        default_factory=dict
    )  # label -> (element type, widget id)
    #: (seconds from the request, text) of every text element as it arrived, over every run
    #: in between (``st.rerun``) too: when a page showed what
    seen: list[tuple[float, str]] = field(default_factory=list)
    #: Every widget id of the final run, in order (a keyed widget's id ends with its key).
    ids: list[str] = field(default_factory=list)


class Session:
    """One headless session on ``base`` (``http://127.0.0.1:PORT``)."""

    def __init__(self, base: str) -> None:
        self.url = base.replace("http://", "ws://") + "/_stcore/stream"
        self.ws = None
        self.values: dict[str, WidgetState] = {}  # widget id -> the value this session set
        self.screen: dict[
            str, WidgetState
        ] = {}  # widget id -> its state on screen after the last run
        self.query: str | None = None  # the URL's query as the app last set it (page_info_changed)
        self.fragments: dict[str, str] = {}  # widget id -> the fragment that drew it
        self.pages: dict[str, str] = {}  # page name -> its script hash (st.navigation's message)

    async def connect(self) -> None:
        self.ws = await websockets.connect(
            self.url,
            subprotocols=["streamlit"],
            max_size=None,
            open_timeout=120,
            ping_interval=None,
        )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def run(
        self,
        page: str,
        query: str | None = None,
        trigger: str | None = None,
        timeout_s: float = 900,
        whole: bool = False,
    ) -> Run:
        """Request a run of ``page`` (URL path) with ``query`` (default: the URL as the app last
        set it);
        with ``trigger`` (a widget id), press that button.

        Returns when the server reports a complete run (``FINISHED_SUCCESSFULLY``),
        after any ``st.rerun`` in between; the texts and widgets are those of that final run.
        A ``trigger`` drawn in a fragment reruns that fragment only, unless ``whole``.
        """
        states = WidgetStates(widgets=list({**self.screen, **self.values}.values()))
        if trigger is not None:
            states.widgets.append(WidgetState(id=trigger, trigger_value=True))
        msg = BackMsg()
        msg.rerun_script.query_string = query if query is not None else (self.query or "")
        msg.rerun_script.page_name = page
        # the browser names its page by hash too: a fragment's st.rerun then reruns that page
        msg.rerun_script.page_script_hash = self.pages.get(page, "")
        msg.rerun_script.widget_states.CopyFrom(states)
        fragment = "" if whole or trigger is None else self.fragments.get(trigger, "")
        msg.rerun_script.fragment_id = fragment
        done = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR}
        if fragment:
            done.add(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        texts: list[str] = []
        widgets: dict[str, tuple[str, str]] = {}
        screen: dict[str, WidgetState] = {}
        seen: list[tuple[float, str]] = []
        ids: list[str] = []
        deadline = t0 + timeout_s
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), max(1.0, deadline - time.perf_counter()))
            fwd = ForwardMsg()
            fwd.ParseFromString(raw)
            kind = fwd.WhichOneof("type")
            if (
                kind == "page_info_changed"
            ):  # the browser moves its URL and sends this query from now on
                self.query = fwd.page_info_changed.query_string
            elif kind == "navigation" and fwd.navigation.page_script_hash:
                self.pages[page] = fwd.navigation.page_script_hash
            elif kind == "new_session":
                texts, widgets, screen, ids = [], {}, {}, []
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                el = fwd.delta.new_element
                etype = el.WhichOneof("type")
                body = getattr(el, etype) if etype else None
                if etype in ("markdown", "alert", "text", "heading"):
                    texts.append(body.body)
                    seen.append((time.perf_counter() - t0, body.body))
                elif body is not None and hasattr(body, "id") and getattr(body, "id", ""):
                    widgets[getattr(body, "label", "")] = (etype, body.id)
                    ids.append(body.id)
                    if fwd.delta.fragment_id:
                        self.fragments[body.id] = fwd.delta.fragment_id
                    state = widget_state(etype, body, self.screen.get(body.id))
                    if state is not None:
                        screen[body.id] = state
            elif kind == "script_finished" and fwd.script_finished in done:
                partial = fwd.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
                self.screen = {**self.screen, **screen} if partial else screen
                return Run(fwd.script_finished, time.perf_counter() - t0, texts, widgets, seen, ids)

    def set_text(self, widget_id: str, value: str) -> None:
        """Remember a text widget's value; it travels with every later run, as the browser's
        does."""
        self.values[widget_id] = WidgetState(id=widget_id, string_value=value)

    def set_number(self, widget_id: str, value: float) -> None:
        """Remember a slider's value (sent with every later run, as the browser's is)."""
        out = WidgetState(id=widget_id)
        out.double_array_value.data.append(float(value))
        self.values[widget_id] = out
