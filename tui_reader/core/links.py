"""A paper's links: the URLs its text mentions, its own url and a search link."""

import re
from collections.abc import Iterable
from urllib.parse import quote_plus

from tui_reader.core.text import token

# What no URL holds: a backslash ends one (what is left of an OSC 8 hyperlink escape,
# `ESC ]8;;URL ESC \`, once its control characters are cleaned), and so does any control,
# bidirectional or zero-width character that cleaning missed.
_NOT_IN_URL = r"\s<>\"'`\\\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff"
# Square brackets end a URL found in text: `[https://a](https://a)` is two links in Markdown.
_URL = re.compile(rf"(?:https?://|www\.)[^{_NOT_IN_URL}\[\]]+", re.IGNORECASE)
_URL_END = re.compile(rf"[{_NOT_IN_URL}]")
_TRAILING = ".,;:!?'\"*_"
_PAIRS = {")": "(", "]": "[", "}": "{", ">": "<"}


def _trim(url: str) -> str:
    """Drop sentence punctuation and unbalanced closing brackets from the end of a URL."""
    while url:
        last = url[-1]
        unbalanced = last in _PAIRS and url.count(last) > url.count(_PAIRS[last])
        if last in _TRAILING or unbalanced:
            url = url[:-1]
        else:
            break
    return url


def extract_links(text: str) -> list[str]:
    """Every distinct URL in `text`, in order, without trailing punctuation.

    A bare `www.` address is given the https scheme.
    """
    if "://" not in text and "www." not in text and "WWW." not in text:
        return []
    links: dict[str, None] = {}  # in order, each once, without a walk of the list for each
    for match in _URL.finditer(text):
        url = _trim(match.group())
        if url.lower().startswith("www."):
            url = "https://" + url
        if "." in url.split("//", 1)[-1]:
            links[url] = None
    return list(links)


DEFAULT_SEARCH_URL = "https://scholar.google.com/scholar?q={query}"


def check_search_template(template: str) -> str:
    """The template, if it is an http(s) URL with a `{query}` slot; ValueError says why not."""
    if "{query}" not in template:
        raise ValueError(f"the search link {template!r} has no {{query}} slot")
    if not is_web_url(template.replace("{query}", "x")):
        raise ValueError(f"the search link {template!r} is not an http or https address")
    return template


def is_web_url(url: str) -> bool:
    """Whether the reader may keep, show or open it: http and https only, and no space,
    control or format character anywhere in it."""
    scheme, _, rest = url.partition("://")
    return scheme.lower() in ("http", "https") and bool(rest) and bool(token(url))


def search_link(title: str, template: str = DEFAULT_SEARCH_URL) -> str:
    """The search link for a paper: the template with its title (or headline) filled in."""
    return template.replace("{query}", quote_plus(" ".join(title.split())))


def paper_links(own_url: str, text_links: Iterable[str], search: str) -> list[str]:
    """A paper's links, primary first: its own url, the URLs in its text, the search link.

    The own url ends where a character no URL holds begins; a link holding a space, a
    control or a format character is left out."""
    own_url = _URL_END.split(own_url, maxsplit=1)[0]
    return list(dict.fromkeys(link for link in (own_url, *text_links, search) if token(link)))
