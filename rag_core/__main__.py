"""``python -m rag_core`` — see :mod:`rag_core.cli`."""

import sys

from .cli import main

sys.exit(main())
