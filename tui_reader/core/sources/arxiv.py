"""arXiv: the Atom API for searches and recent listings, OAI-PMH for bulk harvests.

Which one a fetch uses:
- OAI-PMH (`ListRecords`, `metadataPrefix=arXiv`) for a harvest: `--since DATE` with no
  `--query` and no `--max`. It pages with resumption tokens through every record changed since
  DATE in each category's archive set (`cs`, `math`, `physics:hep-th`...), and keeps the
  papers of the categories asked for that were first submitted on or after DATE. It has no
  cap, so it suits thousands of papers; it gives no version numbers.
- The Atom API (`search_query`, `start`/`max_results`) for everything else: a query, a
  category listing, or `--since` with `--max`. Newest first (by submission date), at most
  `--max` papers (DEFAULT_MAX when not given; the API serves 30,000 at most).

Both are asked no more than once every INTERVAL seconds. XML is parsed with defusedxml.
"""

import io
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeXML

from tui_reader.core.sources.pages import Cursor, MalformedPage, Page
from tui_reader.core.sources.polite import FetchError, PoliteClient, Refused, Service, base_url
from tui_reader.core.sources.record import (
    SourceRecord,
    arxiv_links,
    clean_all,
    split_arxiv_id,
)
from tui_reader.core.text import clean

API_VARIABLE = "TUI_READER_ARXIV_API"
OAI_VARIABLE = "TUI_READER_ARXIV_OAI"
API_DEFAULT = "https://export.arxiv.org/api/query"
OAI_DEFAULT = "https://oaipmh.arxiv.org/oai"
INTERVAL = 3.0  # arXiv's terms of use: one request every three seconds
PAGE_SIZE = 200  # papers an Atom request asks for
DEFAULT_MAX = 1000
MAX_RESULTS = 30_000  # the most the Atom API serves for one query

ATOM = "{http://www.w3.org/2005/Atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
ARXIV_ATOM = "{http://arxiv.org/schemas/atom}"
OAI = "{http://www.openarchives.org/OAI/2.0/}"
ARXIV_OAI = "{http://arxiv.org/OAI/arXiv/}"

CATEGORY = re.compile(r"[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z]+(?:-[a-z]+)?)?")
# The archives OAI-PMH lists as subsets of `physics`; the others are sets of their own.
PHYSICS_ARCHIVES = frozenset(
    {
        "astro-ph", "cond-mat", "gr-qc", "hep-ex", "hep-lat", "hep-ph", "hep-th",
        "math-ph", "nlin", "nucl-ex", "nucl-th", "physics", "quant-ph",
    }
)  # fmt: skip
# A query already in the API's own syntax is sent as it is.
_QUERY_SYNTAX = re.compile(r'\b(?:ti|au|abs|co|jr|cat|rn|id|all):|"|\b(?:AND|OR|ANDNOT)\b')


@dataclass(frozen=True)
class ArxivRequest:
    categories: tuple[str, ...] = ()
    query: str = ""
    since: date | None = None
    max: int | None = None
    # The config's [sources] addresses (arxiv_api, arxiv_oai); the environment wins over them.
    addresses: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def harvest(self) -> bool:
        """Whether this is a bulk harvest, done with OAI-PMH."""
        return self.since is not None and self.max is None and not self.query

    @property
    def limit(self) -> int:
        return min(self.max or DEFAULT_MAX, MAX_RESULTS)

    def key(self) -> dict[str, object]:
        """What identifies the listing in the resume state (`--max` only says where to stop)."""
        return {
            "source": "arxiv-oai" if self.harvest else "arxiv",
            "categories": list(self.categories),
            "query": self.query,
            "since": self.since.isoformat() if self.since else "",
        }

    def pages(self, client: PoliteClient, cursor: Cursor | None) -> Iterator[Page]:
        """The papers, a page at a time: harvested with OAI-PMH, or from the Atom API."""
        return (oai_pages if self.harvest else atom_pages)(client, self, cursor)

    def service(self) -> Service:
        if self.harvest:
            return oai_service(self.addresses.get("arxiv_oai", ""))
        return atom_service(self.addresses.get("arxiv_api", ""))

    def label(self) -> str:
        """How progress names the fetch: arXiv cs.LG 'diffusion' since 2025-06-01."""
        words = [self.service().name, *self.categories]
        if self.query:
            words.append(repr(self.query))
        if self.since:
            words.append(f"since {self.since}")
        return " ".join(words)

    def name(self) -> str:
        """A file name for the collection: arxiv-cs-LG, arxiv-query-diffusion-since-2025-06-01."""
        parts = ["arxiv", *self.categories]
        if self.query:
            parts += ["query", self.query]
        if self.since:
            parts += ["since", self.since.isoformat()]
        slug = re.sub(r"[^A-Za-z0-9]+", "-", "-".join(parts)).strip("-")
        return slug[:80].rstrip("-")


def check_category(category: str) -> str:
    if not CATEGORY.fullmatch(category):
        raise ValueError(f"not an arXiv category: {category!r} (like cs.LG or hep-th)")
    return category


def atom_service(configured: str = "") -> Service:
    return Service("arXiv", base_url(API_VARIABLE, API_DEFAULT, configured), INTERVAL)


def oai_service(configured: str = "") -> Service:
    return Service("arXiv OAI-PMH", base_url(OAI_VARIABLE, OAI_DEFAULT, configured), INTERVAL)


def search_query(request: ArxivRequest, now: datetime | None = None) -> str:
    """The Atom API's `search_query` for the request: its parts joined by AND."""
    parts = []
    if request.categories:
        parts.append("(" + " OR ".join(f"cat:{c}" for c in request.categories) + ")")
    if query := request.query.strip():
        if _QUERY_SYNTAX.search(query):
            parts.append(f"({query})")
        else:
            parts.append("(" + " AND ".join(f"all:{word}" for word in query.split()) + ")")
    if request.since:
        end = (now or datetime.now(timezone.utc)).strftime("%Y%m%d%H%M")
        parts.append(f"submittedDate:[{request.since:%Y%m%d}0000 TO {end}]")
    return " AND ".join(parts)


def _text(element: Element | None, tag: str) -> str:
    found = element.find(tag) if element is not None else None
    return clean(found.text or "") if found is not None else ""


def _day(timestamp: str) -> str:
    """The date of an ISO timestamp (`2025-01-02T18:00:00Z` -> `2025-01-02`), or ""."""
    try:
        return date.fromisoformat(timestamp[:10]).isoformat()
    except ValueError:
        return ""


def _record(
    arxiv_id: str,
    version: int | None,
    *,
    title: str,
    abstract: str,
    authors: tuple[str, ...],
    published: str,
    updated: str,
    categories: list[str],
    doi: str,
    journal_ref: str,
    comments: str,
) -> SourceRecord:
    return SourceRecord(
        source_id=f"arxiv:{arxiv_id}",
        title=title,
        abstract=abstract,
        authors=authors,
        venue=journal_ref or "arXiv",
        year=int(published[:4]) if published else None,
        published=published,
        updated=updated or published,
        arxiv_id=arxiv_id,
        arxiv_version=version,
        doi=doi,
        categories=tuple(dict.fromkeys(c for c in categories if CATEGORY.fullmatch(c))),
        comments=comments,
        links=arxiv_links(arxiv_id, doi),
    )


def _atom_entry(entry: Element) -> SourceRecord | None:
    identifier = split_arxiv_id(_text(entry, f"{ATOM}id"))
    if identifier is None:
        return None
    primary = entry.find(f"{ARXIV_ATOM}primary_category")
    categories = [primary.get("term", "")] if primary is not None else []
    categories += [c.get("term", "") for c in entry.findall(f"{ATOM}category")]
    return _record(
        *identifier,
        title=_text(entry, f"{ATOM}title"),
        abstract=_text(entry, f"{ATOM}summary"),
        authors=clean_all([a.findtext(f"{ATOM}name") for a in entry.findall(f"{ATOM}author")]),
        published=_day(_text(entry, f"{ATOM}published")),
        updated=_day(_text(entry, f"{ATOM}updated")),
        categories=categories,
        doi=_text(entry, f"{ARXIV_ATOM}doi"),
        journal_ref=_text(entry, f"{ARXIV_ATOM}journal_ref"),
        comments=_text(entry, f"{ARXIV_ATOM}comment"),
    )


@dataclass
class AtomFeed:
    records: list[SourceRecord]
    entries: int
    total: int | None
    unreadable: int


def _api_error(entry: Element) -> str | None:
    """The message of the error entry the API answers a bad query with, or None."""
    if _text(entry, f"{ATOM}id").startswith("http://arxiv.org/api/errors"):
        return _text(entry, f"{ATOM}summary") or "an error"
    return None


def parse_atom(data: bytes) -> AtomFeed:
    """The papers of an Atom feed page. MalformedPage when it cannot be read to its end,
    with the papers of the entries read before the problem; FetchError for the API's own
    error entry."""
    feed = AtomFeed([], 0, None, 0)
    try:
        for _, element in SafeXML.iterparse(io.BytesIO(data), ("end",), forbid_dtd=True):
            if element.tag == f"{OPENSEARCH}totalResults":
                feed.total = int((element.text or "0").strip() or 0)
            elif element.tag == f"{ATOM}entry":
                if message := _api_error(element):
                    raise FetchError(f"arXiv: {message}")
                feed.entries += 1
                if record := _atom_entry(element):
                    feed.records.append(record)
                else:
                    feed.unreadable += 1
                element.clear()
    except (SafeXML.ParseError, ValueError) as error:
        raise MalformedPage(f"an arXiv page was not valid XML ({error})", feed.records) from None
    return feed


def atom_pages(
    client: PoliteClient, request: ArxivRequest, cursor: Cursor | None
) -> Iterator[Page]:
    """The request's papers from the Atom API, newest first, a page at a time."""
    service = request.service()
    query = search_query(request)
    start = int(cursor["start"]) if cursor else 0
    while start < request.limit:
        size = min(PAGE_SIZE, request.limit - start)
        params: dict[str, str | int] = {
            "search_query": query,
            "start": start,
            "max_results": size,
            "sortBy": "submittedDate",
            "sortOrder": "descending",
        }
        try:
            response = client.get(service, params)
        except Refused as error:
            raise FetchError(_refusal(error)) from None
        feed = parse_atom(response.content)
        total = min(feed.total, request.limit) if feed.total is not None else None
        if feed.entries == 0 and total is not None and start < total:
            # The API is known to answer an empty page now and then: not the listing's end.
            raise FetchError(f"arXiv answered an empty page at {start:,} of {total:,}")
        start += feed.entries
        done = feed.entries == 0 or start >= (total if total is not None else request.limit)
        more: Cursor | None = None if done else {"start": start}
        yield Page(feed.records, more, start, total, unreadable=feed.unreadable)
        if done:
            return


def _refusal(error: Refused) -> str:
    """What the API said about a query it refused (it answers with an Atom error entry)."""
    try:
        parse_atom(error.response.content)
    except FetchError as explained:
        return str(explained)
    except MalformedPage:
        pass
    return str(error)


def oai_set(category: str) -> str:
    """The OAI-PMH set holding a category: its archive (`cs`), or `physics:ARCHIVE`."""
    archive = category.split(".")[0]
    return f"physics:{archive}" if archive in PHYSICS_ARCHIVES else archive


def _wanted(record: SourceRecord, request: ArxivRequest) -> bool:
    if request.since and record.published < request.since.isoformat():
        return False
    if not request.categories:
        return True
    return any(
        category == wanted or category.startswith(f"{wanted}.")
        for category in record.categories
        for wanted in request.categories
    )


def _oai_record(metadata: Element) -> SourceRecord | None:
    identifier = split_arxiv_id(_text(metadata, f"{ARXIV_OAI}id"))
    if identifier is None:
        return None
    authors = []
    for author in metadata.iter(f"{ARXIV_OAI}author"):
        name = " ".join(
            _text(author, f"{ARXIV_OAI}{part}") for part in ("forenames", "keyname", "suffix")
        )
        authors.append(name)
    return _record(
        identifier[0],
        None,
        title=_text(metadata, f"{ARXIV_OAI}title"),
        abstract=_text(metadata, f"{ARXIV_OAI}abstract"),
        authors=clean_all(authors),
        published=_day(_text(metadata, f"{ARXIV_OAI}created")),
        updated=_day(_text(metadata, f"{ARXIV_OAI}updated")),
        categories=_text(metadata, f"{ARXIV_OAI}categories").split(),
        doi=_text(metadata, f"{ARXIV_OAI}doi"),
        journal_ref=_text(metadata, f"{ARXIV_OAI}journal-ref"),
        comments=_text(metadata, f"{ARXIV_OAI}comments"),
    )


class ExpiredToken(FetchError):
    """OAI-PMH no longer knows a resumption token (they expire)."""


@dataclass
class OaiPage:
    records: list[SourceRecord]
    token: str
    position: int | None  # records of the set listed up to the end of this page
    total: int | None
    unreadable: int


def parse_oai(data: bytes) -> OaiPage:
    """The records of a ListRecords answer and its resumption token ("" on the last page).
    MalformedPage when it cannot be read to its end (with the records read before), FetchError
    for an OAI-PMH error other than noRecordsMatch, ExpiredToken for badResumptionToken."""
    page = OaiPage([], "", None, None, 0)
    listed = 0
    try:
        for _, element in SafeXML.iterparse(io.BytesIO(data), ("end",), forbid_dtd=True):
            if element.tag == f"{OAI}error":
                code = element.get("code", "")
                if code == "noRecordsMatch":
                    continue
                message = f"arXiv OAI-PMH: {code} {clean(element.text or '')}".strip()
                raise (ExpiredToken if code == "badResumptionToken" else FetchError)(message)
            if element.tag == f"{OAI}resumptionToken":
                page.token = (element.text or "").strip()
                size, cursor = element.get("completeListSize", ""), element.get("cursor", "")
                page.total = int(size) if size.isdigit() else None
                page.position = int(cursor) + listed if cursor.isdigit() else None
            elif element.tag == f"{OAI}record":
                listed += 1
                header = element.find(f"{OAI}header")
                if header is None or header.get("status") != "deleted":  # deleted: no metadata
                    metadata = element.find(f"{OAI}metadata/{ARXIV_OAI}arXiv")
                    record = _oai_record(metadata) if metadata is not None else None
                    if record is None:
                        page.unreadable += 1
                    else:
                        page.records.append(record)
                element.clear()
    except (SafeXML.ParseError, ValueError) as error:
        message = f"an arXiv OAI-PMH page was not valid XML ({error})"
        raise MalformedPage(message, page.records) from None
    return page


def oai_pages(client: PoliteClient, request: ArxivRequest, cursor: Cursor | None) -> Iterator[Page]:
    """The request's papers harvested with OAI-PMH, set after set, token after token. A token
    that has expired (an old resume state) starts its set again from the beginning."""
    service = request.service()
    sets = list(dict.fromkeys(oai_set(c) for c in request.categories)) or [""]
    index = int(cursor["set"]) if cursor else 0
    token = str(cursor.get("token", "")) if cursor else ""
    while index < len(sets):
        params: dict[str, str | int] = {"verb": "ListRecords"}
        if token:
            params["resumptionToken"] = token
        else:
            params["metadataPrefix"] = "arXiv"
            if request.since:
                params["from"] = request.since.isoformat()
            if sets[index]:
                params["set"] = sets[index]
        try:
            page = parse_oai(client.get(service, params).content)
        except ExpiredToken:
            if not token:
                raise
            token = ""
            continue
        except MalformedPage as error:  # the papers read before the problem, as a page's
            error.records = [record for record in error.records if _wanted(record, request)]
            raise
        token = page.token
        if not token:
            index += 1
        wanted = [record for record in page.records if _wanted(record, request)]
        more: Cursor | None = {"set": index, "token": token} if index < len(sets) else None
        yield Page(wanted, more, page.position, page.total, page.unreadable)
