"""tui-reader: a terminal reader for research-paper abstracts."""

__version__ = "0.1.0"
