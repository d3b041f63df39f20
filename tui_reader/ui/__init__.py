"""The Textual app over the core.

Textual draws at most TEXTUAL_FPS frames a second (60 unless set), and a change waits for the
next frame's turn: at 120 the list follows each key about 5 ms sooner. It must be set before
Textual is imported; a value the user set is kept.
"""

import os

os.environ.setdefault("TEXTUAL_FPS", "120")
