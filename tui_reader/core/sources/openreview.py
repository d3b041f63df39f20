"""OpenReview: a venue's papers from the API v2 (`GET /notes`), paged with `offset`/`limit`.

A venue's accepted papers are the notes whose `content.venueid` is the venue id itself
(`ICML.cc/2026/Conference`); every submission, accepted or not (under review, rejected,
withdrawn, desk rejected: whatever the venue makes public), answers the venue's submission
invitation (`ICML.cc/2026/Conference/-/Submission`). This is how OpenReview's own Python client
tells them apart. Each field of a note is `content.<field>.value`.
"""

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone

from tui_reader.core.sources.pages import Cursor, MalformedPage, Page
from tui_reader.core.sources.polite import PoliteClient, Service, base_url
from tui_reader.core.sources.record import DOI_SITE, SourceRecord, clean_all
from tui_reader.core.text import clean, token

API_VARIABLE = "TUI_READER_OPENREVIEW_API"
API_DEFAULT = "https://api2.openreview.net"
SITE = "https://openreview.net"
INTERVAL = 1.0  # seconds between requests: OpenReview states no rule; one a second is gentle
PAGE_SIZE = 1000  # the most notes the API returns for one request
OBJECTS_A_NOTE = 200  # JSON objects a note may hold: its content's fields are a few dozen

VENUE_ID = re.compile(r"[A-Za-z0-9][\w.\-]*(?:/[\w.\-]+)*")
_YEAR = re.compile(r"(?:19|20)\d\d")
# The decision a note's venueid gives, by what follows the venue id.
DECISIONS = {
    "": "accepted",
    "/Submission": "under review",
    "/Rejected_Submission": "rejected",
    "/Withdrawn_Submission": "withdrawn",
    "/Desk_Rejected_Submission": "desk rejected",
}


@dataclass(frozen=True)
class VenueRequest:
    venue_id: str
    accepted: bool = False
    # The config's [sources] addresses (openreview_api); the environment wins over them.
    addresses: Mapping[str, str] = field(default_factory=dict, compare=False)

    def key(self) -> dict[str, object]:
        return {"source": "openreview", "venue": self.venue_id, "accepted": self.accepted}

    def pages(self, client: PoliteClient, cursor: Cursor | None) -> Iterator[Page]:
        return venue_pages(client, self, cursor)

    def service(self) -> Service:
        return api_service(self.addresses.get("openreview_api", ""))

    def label(self) -> str:
        return f"OpenReview {self.venue_id}" + (" (accepted)" if self.accepted else "")

    def name(self) -> str:
        """A file name for the collection: openreview-ICML-cc-2026-Conference[-accepted]."""
        slug = re.sub(r"[^A-Za-z0-9]+", "-", f"openreview-{self.venue_id}").strip("-")
        return slug[:80].rstrip("-") + ("-accepted" if self.accepted else "")

    def params(self) -> dict[str, str | int]:
        if self.accepted:
            return {"content.venueid": self.venue_id}
        return {"invitation": f"{self.venue_id}/-/Submission"}


def check_venue_id(venue_id: str) -> str:
    if not VENUE_ID.fullmatch(venue_id):
        raise ValueError(f"not an OpenReview venue id: {venue_id!r} (like ICML.cc/2026/Conference)")
    return venue_id


def api_service(configured: str = "") -> Service:
    notes = base_url(API_VARIABLE, API_DEFAULT, configured).rstrip("/") + "/notes"
    return Service("OpenReview", notes, INTERVAL)


def _value(content: dict[str, object], key: str) -> object:
    """A content field's value: API v2 wraps each one as {"value": ...}."""
    value = content.get(key)
    return value.get("value") if isinstance(value, dict) else value


def _string(content: dict[str, object], key: str) -> str:
    value = _value(content, key)
    return clean(value) if isinstance(value, str) else ""


def _authors(value: object) -> tuple[str, ...]:
    """Author names: a list of names, or (newer venues) of {"fullname": ...} objects."""
    if not isinstance(value, list):
        return ()
    return clean_all([a.get("fullname") if isinstance(a, dict) else a for a in value])


def _keywords(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return clean_all(value.split(","))
    return clean_all(value)


def _day(milliseconds: object) -> str:
    if not isinstance(milliseconds, int) or isinstance(milliseconds, bool):
        return ""
    try:
        return datetime.fromtimestamp(milliseconds / 1000, timezone.utc).date().isoformat()
    except (OverflowError, OSError, ValueError):
        return ""


def _link(value: str) -> str:
    """An http(s) link, a site-relative path made absolute; "" for anything else."""
    if value.startswith("/"):
        return SITE + value
    return value if value.startswith(("https://", "http://")) else ""


def _year(request: VenueRequest, published: str) -> int | None:
    if match := _YEAR.search(request.venue_id):
        return int(match.group())
    return int(published[:4]) if published else None


def note_record(note: object, request: VenueRequest) -> SourceRecord | None:
    """Our record of a note, or None when it is not a readable paper."""
    if not isinstance(note, dict) or not isinstance(note.get("content"), dict):
        return None
    content: dict[str, object] = note["content"]
    forum = note.get("forum") or note.get("id")
    if not isinstance(forum, str) or not token(forum):  # an id holding escapes is no id
        return None
    published = _day(note.get("pdate")) or _day(note.get("odate")) or _day(note.get("cdate"))
    venueid = _string(content, "venueid")
    decision = ""
    if venueid.startswith(request.venue_id):
        decision = DECISIONS.get(venueid[len(request.venue_id) :], "")
    doi = _string(content, "doi")
    links = {"pdf": _link(_string(content, "pdf")), "forum": f"{SITE}/forum?id={forum}"}
    links["code"] = _link(_string(content, "code"))
    if doi:
        links["doi"] = f"{DOI_SITE}/{doi}"
    return SourceRecord(
        source_id=f"openreview:{forum}",
        title=_string(content, "title"),
        abstract=_string(content, "abstract"),
        authors=_authors(_value(content, "authors")),
        venue=_string(content, "venue"),
        year=_year(request, published),
        published=published,
        updated=_day(note.get("mdate")) or _day(note.get("tmdate")) or published,
        doi=doi,
        openreview_forum=forum,
        decision=decision,
        keywords=_keywords(_value(content, "keywords")),
        links={kind: link for kind, link in links.items() if link},
    )


def read_notes(data: bytes, asked: int) -> object:
    """The notes of an answer asked for at most `asked` of them, as JSON; MalformedPage when
    it holds far more objects than so many notes can (a note is a few dozen: a page of
    millions of empty ones took 1.6 GB to read) or more notes than asked for."""
    if data.count(b"{") > OBJECTS_A_NOTE * max(asked, 1):
        raise MalformedPage(f"an OpenReview page held far more than the {asked:,} notes asked")
    try:
        notes = json.loads(data).get("notes")
    except (ValueError, RecursionError, AttributeError) as error:
        reason = error.msg if isinstance(error, json.JSONDecodeError) else "not a JSON object"
        raise MalformedPage(f"an OpenReview page was not valid JSON ({reason})") from None
    if isinstance(notes, list) and len(notes) > asked:
        raise MalformedPage(f"an OpenReview page held {len(notes):,} notes, {asked:,} asked")
    return notes


def parse_notes(data: bytes, request: VenueRequest) -> tuple[list[SourceRecord], int, int]:
    """The papers of a notes page, how many notes it had, and how many could not be read.
    MalformedPage when the page is not the API's JSON."""
    notes = read_notes(data, PAGE_SIZE)
    if not isinstance(notes, list):
        raise MalformedPage("an OpenReview page had no list of notes")
    records = [record for note in notes if (record := note_record(note, request))]
    return records, len(notes), len(notes) - len(records)


def venue_pages(
    client: PoliteClient, request: VenueRequest, cursor: Cursor | None
) -> Iterator[Page]:
    """The venue's papers, a page at a time, until a page comes back short."""
    api = request.service()
    offset = int(cursor["offset"]) if cursor else 0
    while True:
        params = {**request.params(), "offset": offset, "limit": PAGE_SIZE}
        records, count, unreadable = parse_notes(client.get(api, params).content, request)
        offset += count
        done = count < PAGE_SIZE
        more: Cursor | None = None if done else {"offset": offset}
        yield Page(records, more, offset, unreadable=unreadable)
        if done:
            return
