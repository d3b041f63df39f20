"""Looking a paper up by the words of its abstract: a few candidates from each service.

- arXiv: the Atom API (`search_query` of `abs:` terms joined by OR, `sortBy=relevance`): the
  papers whose abstracts hold most of the words come first.
- OpenReview: API v2 `GET /notes/search` (`term`, `content=all`, `group=all`, `source=all`,
  `limit`), as OpenReview's own client calls it; of the notes it answers, only submissions
  (a note that is its own forum) are papers.

Both go through the polite client, spaced as a fetch is, and give SourceRecords.
"""

from collections.abc import Mapping, Sequence

from tui_reader.core.sources import arxiv, openreview
from tui_reader.core.sources.pages import MalformedPage
from tui_reader.core.sources.polite import FetchError, PoliteClient, Refused, Service, base_url
from tui_reader.core.sources.record import SourceRecord

CANDIDATES = 10  # papers asked of each service for one abstract


def arxiv_candidates(
    client: PoliteClient, words: Sequence[str], addresses: Mapping[str, str]
) -> list[SourceRecord]:
    """The arXiv papers whose abstracts hold most of the words, best first."""
    params: dict[str, str | int] = {
        "search_query": " OR ".join(f"abs:{word}" for word in words),
        "start": 0,
        "max_results": CANDIDATES,
        "sortBy": "relevance",
        "sortOrder": "descending",
    }
    try:
        response = client.get(arxiv.atom_service(addresses.get("arxiv_api", "")), params)
        return arxiv.parse_atom(response.content).records
    except Refused as error:
        raise FetchError(str(error)) from None
    except MalformedPage as error:
        raise FetchError(str(error)) from None


def search_service(addresses: Mapping[str, str]) -> Service:
    url = base_url(
        openreview.API_VARIABLE, openreview.API_DEFAULT, addresses.get("openreview_api", "")
    )
    return Service("OpenReview", url.rstrip("/") + "/notes/search", openreview.INTERVAL)


def openreview_candidates(
    client: PoliteClient, words: Sequence[str], addresses: Mapping[str, str]
) -> list[SourceRecord]:
    """The OpenReview submissions the search finds for the words, best first."""
    params: dict[str, str | int] = {
        "term": " ".join(words),
        "content": "all",
        "group": "all",
        "source": "all",
        "limit": CANDIDATES,
    }
    try:
        data = client.get(search_service(addresses), params).content
    except Refused as error:
        raise FetchError(str(error)) from None
    try:
        notes = openreview.read_notes(data, CANDIDATES)
    except MalformedPage:
        notes = None
    if not isinstance(notes, list):
        raise FetchError("an OpenReview search answer was not the API's JSON")
    records = []
    for note in notes:
        if not isinstance(note, dict) or note.get("forum", note.get("id")) != note.get("id"):
            continue  # a review or comment, not a paper
        domain = note.get("domain")
        venue = openreview.VenueRequest(domain if isinstance(domain, str) else "")
        if record := openreview.note_record(note, venue):
            records.append(record)
    return records
