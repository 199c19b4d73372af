"""bench/wsclient.py sends each widget's state as the browser would (else keyed widgets reset on
the server)."""

from __future__ import annotations

import sys

from helpers.paths import ROOT
from streamlit.proto.Checkbox_pb2 import Checkbox
from streamlit.proto.MultiSelect_pb2 import MultiSelect
from streamlit.proto.Selectbox_pb2 import Selectbox
from streamlit.proto.TextInput_pb2 import TextInput
from streamlit.proto.WidgetStates_pb2 import WidgetState

sys.path.insert(0, str(ROOT / "bench"))

from wsclient import widget_state


def test_selectbox_default_then_server_value_then_known():
    el = Selectbox(id="w1", options=["a", "b", "c"], default=1)
    assert widget_state("selectbox", el, None).string_value == "b"
    known = WidgetState(id="w1", string_value="c")
    assert widget_state("selectbox", el, known) is known  # the session's own choice stays
    el.raw_value, el.set_value = (
        "a",
        True,
    )  # the script set it (session state): the server's value wins
    assert widget_state("selectbox", el, known).string_value == "a"


def test_text_checkbox_multiselect_and_unknown_types():
    assert widget_state("text_input", TextInput(id="t", default="x"), None).string_value == "x"
    assert (
        widget_state("text_input", TextInput(id="t"), None) is None
    )  # no value yet: nothing to send
    assert widget_state("checkbox", Checkbox(id="c", default=True), None).bool_value is True
    ms = MultiSelect(id="m", options=["p", "q", "r"], default=[0, 2])
    assert list(widget_state("multiselect", ms, None).string_array_value.data) == ["p", "r"]
    assert widget_state("button", Checkbox(id="b"), None) is None
