"""A paper's links: the URLs its text mentions, its own url and a search link."""

import re
from collections.abc import Iterable
from urllib.parse import quote_plus

# Square brackets end a URL: `[https://a](https://a)` is two links in Markdown, not one.
_URL = re.compile(r"(?:https?://|www\.)[^\s<>\"'`\[\]]+", re.IGNORECASE)
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
    if "://" not in text and "www." not in text and "WWW." not in text:
        return links
    for match in _URL.finditer(text):
        url = _trim(match.group())
        if url.lower().startswith("www."):
            url = "https://" + url
        if "." in url.split("//", 1)[-1] and url not in links:
            links.append(url)
    return links


DEFAULT_SEARCH_URL = "https://scholar.google.com/scholar?q={query}"
_SEARCH_QUERY_MAX = 200


def check_search_template(template: str) -> str:
    """The template, if it is an http(s) URL with a `{query}` slot; ValueError says why not."""
    if "{query}" not in template:
        raise ValueError(f"the search link {template!r} has no {{query}} slot")
    if not is_web_url(template.replace("{query}", "x")):
        raise ValueError(f"the search link {template!r} is not an http or https address")
    return template


def is_web_url(url: str) -> bool:
    """Whether the reader may open it: http and https only."""
    scheme, _, rest = url.partition("://")
    return scheme.lower() in ("http", "https") and bool(rest.strip())


def search_link(title_or_text: str, template: str = DEFAULT_SEARCH_URL) -> str:
    """The search link for a paper: the template with its title (or first sentence) filled in."""
    query = " ".join(title_or_text.split())[:_SEARCH_QUERY_MAX]
    return template.replace("{query}", quote_plus(query))


def paper_links(own_url: str, text_links: Iterable[str], search: str) -> list[str]:
    """A paper's links, primary first: its own url, the URLs in its text, the search link."""
    return list(dict.fromkeys(link for link in (own_url, *text_links, search) if link))
