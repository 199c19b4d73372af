"""What ``make run`` serves: the app (``app.py``) as Streamlit's ASGI app, whose start-up hook
warms the process (``ui.warm``: the sample corpus's stages and the start configuration's
generator) so that the first question waits for no model load.

``streamlit run serve.py`` takes the same options as ``streamlit run app.py``, which still
works without the warm-up.
"""

import streamlit as st

from ui.warm import lifespan

app = st.App("app.py", lifespan=lifespan)
