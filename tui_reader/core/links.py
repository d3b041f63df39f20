"""The URLs a paper's text mentions."""

import re

_URL = re.compile(r"(?:https?://|www\.)[^\s<>\"'`]+", re.IGNORECASE)
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
    links: list[str] = []
    for match in _URL.finditer(text):
        url = _trim(match.group())
        if url.lower().startswith("www."):
            url = "https://" + url
        if "." in url.split("//", 1)[-1] and url not in links:
            links.append(url)
    return links
