"""A local HTTP server that replays answers written from the services' documentation, a clock
that only moves when the code under test sleeps, and builders for those answers.

No fetch test touches the network: every base URL points at 127.0.0.1.
"""

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

import pytest

from tui_reader.core.sources import polite

Params = dict[str, str]


@dataclass
class Reply:
    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False  # close the connection without answering
    drip: float = 0.0  # seconds between the bytes of the body, sent one at a time
    drip_head: bool = False  # the status line and headers dripped too
    repeat: int = 1  # the body sent this many times over, in chunks, with no Content-Length


@dataclass
class Server:
    url: str
    requests: list[Params]  # the query parameters of each request, in order
    whole: list[Params]  # those of each request whose answer was sent to its last byte


class Script:
    """Answers requests with the replies given, in order; a request past the last gets a 404
    that names it, so the test fails saying so."""

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)

    def __call__(self, params: Params) -> Reply:
        if not self.replies:
            return Reply(f"no reply scripted for {params}".encode(), status=404)
        return self.replies.pop(0)


class QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that timed out and left: what the test wanted


@contextmanager
def serving(respond: Callable[[Params], Reply], path: str = "/api") -> Iterator[Server]:
    """A server on 127.0.0.1 answering GET requests at `path` with `respond(params)`."""
    requests: list[Params] = []
    whole: list[Params] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            params = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
            requests.append(params)
            reply = respond(params) if parts.path == path else Reply(b"wrong path", 404)
            if reply.drop:
                self.close_connection = True
                return
            headers = dict(reply.headers)
            if reply.repeat != 1:
                headers["Transfer-Encoding"] = "chunked"
            else:
                headers.setdefault("Content-Length", str(len(reply.body)))
            phrase = self.responses.get(reply.status, ("",))[0]
            head = f"HTTP/1.1 {reply.status} {phrase}\r\n".encode() + b"".join(
                f"{name}: {value}\r\n".encode() for name, value in headers.items()
            )
            try:
                self.send(head + b"\r\n", reply.drip if reply.drip_head else 0.0)
                if reply.repeat == 1:
                    self.send(reply.body, reply.drip)
                else:
                    chunk = f"{len(reply.body):x}\r\n".encode() + reply.body + b"\r\n"
                    for _ in range(reply.repeat):
                        self.send(chunk, reply.drip)
                    self.send(b"0\r\n\r\n", 0.0)
                whole.append(params)
            except OSError:  # the client left: what a test of a client giving up wants
                self.close_connection = True

        def send(self, data: bytes, drip: float) -> None:
            if not drip:
                self.wfile.write(data)
                return
            for byte in range(len(data)):
                self.wfile.write(data[byte : byte + 1])
                time.sleep(drip)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = QuietServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{server.server_port}{path}", requests, whole)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class FakeTime:
    """Stands for the clock and sleep of the HTTP layer: sleeping is instant and recorded."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.waits: list[float] = []
        self.interrupt_at: int | None = None  # Ctrl+C during this wait (0: the first)

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        if self.interrupt_at is not None and len(self.waits) == self.interrupt_at:
            raise KeyboardInterrupt
        self.waits.append(round(seconds, 3))
        self.now += seconds


def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(polite, "monotonic", fake.monotonic)
    monkeypatch.setattr(polite, "sleep", fake.sleep)
    return fake


def fetch_clock(monkeypatch: pytest.MonkeyPatch, data_home: Path, service: ModuleType) -> FakeTime:
    """A fetch test's world: collections under `data_home`, pages of two papers from the
    service's module, and a clock that only moves when the fetch waits."""
    monkeypatch.setenv("XDG_DATA_HOME", str(data_home))
    monkeypatch.setattr(service, "PAGE_SIZE", 2)
    return fake_time(monkeypatch)


def lines(path: Path) -> list[dict[str, object]]:
    """The records of a collection file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def closed_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens: connections are refused."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = server.server_port
    server.server_close()
    return f"http://127.0.0.1:{port}/api"


# --- arXiv Atom API (https://info.arxiv.org/help/api/user-manual.html, section 3.3.1)

ATOM_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3Dcat%3Acs.LG" rel="self"
    type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=cat:cs.LG&amp;start=0</title>
  <id>http://arxiv.org/api/4dJwbX2nOcPrDn4L3PPjjGfQq0c</id>
  <updated>2025-02-11T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
    >{total}</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
    >{start}</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
    >{size}</opensearch:itemsPerPage>
"""


def atom_entry(
    versioned_id: str,
    title: str,
    *,
    authors: tuple[str, ...] = ("Ada Lovelace",),
    published: str = "2025-01-02T18:00:00Z",
    updated: str = "2025-01-02T18:00:00Z",
    categories: tuple[str, ...] = ("cs.LG",),
    abstract: str = "",
    doi: str = "",
    journal_ref: str = "",
) -> str:
    arxiv = 'xmlns:arxiv="http://arxiv.org/schemas/atom"'
    names = "".join(
        f"<author><name>{escape(a)}</name>"
        f"<arxiv:affiliation {arxiv}>Somewhere</arxiv:affiliation></author>"
        for a in authors
    )
    extra = ""
    if doi:
        extra += f"<arxiv:doi {arxiv}>{doi}</arxiv:doi>"
        extra += f'<link title="doi" href="http://dx.doi.org/{doi}" rel="related"/>'
    if journal_ref:
        extra += f"<arxiv:journal_ref {arxiv}>{escape(journal_ref)}</arxiv:journal_ref>"
    terms = "".join(
        f'<category term="{c}" scheme="http://arxiv.org/schemas/atom"/>' for c in categories
    )
    return f"""  <entry>
    <id>http://arxiv.org/abs/{versioned_id}</id>
    <published>{published}</published>
    <updated>{updated}</updated>
    <title>{escape(title)}</title>
    <summary>  {escape(abstract or f"We study {title.lower()} in depth.")}
    </summary>
    {names}
    <arxiv:comment {arxiv}>12 pages, 3 figures</arxiv:comment>{extra}
    <link href="http://arxiv.org/abs/{versioned_id}" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/{versioned_id}" rel="related"
      type="application/pdf"/>
    <arxiv:primary_category {arxiv} term="{categories[0]}"
      scheme="http://arxiv.org/schemas/atom"/>
    {terms}
  </entry>
"""


def atom_feed(entries: list[str], total: int, start: int = 0) -> bytes:
    head = ATOM_HEAD.format(total=total, start=start, size=len(entries))
    return (head + "".join(entries) + "</feed>\n").encode()


ATOM_ERROR = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">ArXiv Query: search_query=&amp;id_list=1234.12345</title>
  <id>http://arxiv.org/api/kvuntZ8c9a4Eq5CF7KY03nMug+Q</id>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
    >1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345</id>
    <title>Error</title>
    <summary>incorrect id format for 1234.12345</summary>
    <updated>2025-02-11T00:00:00-05:00</updated>
    <link href="http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345"
      rel="alternate" type="text/html"/>
    <author><name>arXiv api core</name></author>
  </entry>
</feed>
"""

# --- arXiv OAI-PMH, metadataPrefix=arXiv (https://info.arxiv.org/help/oa/index.html)

OAI_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/
  http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">
<responseDate>2025-06-03T12:00:00Z</responseDate>
<request verb="ListRecords">https://oaipmh.arxiv.org/oai</request>
"""


def oai_record(
    arxiv_id: str,
    title: str,
    categories: str = "cs.LG",
    created: str = "2025-06-02",
    updated: str = "",
    deleted: bool = False,
) -> str:
    set_spec = categories.split()[0].split(".")[0]
    status = ' status="deleted"' if deleted else ""
    header = (
        f"<header{status}><identifier>oai:arXiv.org:{arxiv_id}</identifier>"
        f"<datestamp>2025-06-02</datestamp><setSpec>{set_spec}</setSpec></header>"
    )
    if deleted:
        return f"<record>{header}</record>\n"
    revised = f"<updated>{updated}</updated>" if updated else ""
    return f"""<record>{header}
<metadata>
<arXiv xmlns="http://arxiv.org/OAI/arXiv/"
  xsi:schemaLocation="http://arxiv.org/OAI/arXiv/ http://arxiv.org/OAI/arXiv.xsd">
<id>{arxiv_id}</id><created>{created}</created>{revised}
<authors><author><keyname>Lovelace</keyname><forenames>Ada</forenames></author>
<author><keyname>Babbage</keyname><forenames>Charles</forenames><suffix>Jr</suffix></author>
</authors>
<title>{escape(title)}</title>
<categories>{categories}</categories>
<comments>10 pages</comments>
<license>http://creativecommons.org/licenses/by/4.0/</license>
<abstract>  We harvest {escape(title.lower())}.
</abstract>
</arXiv>
</metadata>
</record>
"""


def oai_page(records: list[str], token: str, cursor: int, size: int) -> bytes:
    resumption = (
        f'<resumptionToken cursor="{cursor}" completeListSize="{size}">{token}</resumptionToken>'
        if token
        else f'<resumptionToken cursor="{cursor}" completeListSize="{size}"/>'
    )
    body = f"{OAI_HEAD}<ListRecords>\n{''.join(records)}{resumption}\n</ListRecords>\n</OAI-PMH>"
    return body.encode()


def oai_error(code: str, message: str) -> bytes:
    return f'{OAI_HEAD}<error code="{code}">{message}</error>\n</OAI-PMH>'.encode()


# --- OpenReview API v2, GET /notes (https://docs.openreview.net/reference/api-v2)

VENUE = "ICML.cc/2026/Conference"


def note(
    forum: str,
    title: str,
    *,
    venueid: str = VENUE,
    venue: str = "ICML 2026 Poster",
    authors: list[object] | None = None,
    abstract: str = "",
) -> dict[str, object]:
    return {
        "id": forum,
        "forum": forum,
        "number": 12,
        "cdate": 1727000000000,
        "pdate": 1746057600000,  # 2025-05-01
        "odate": 1727100000000,
        "mdate": 1748736000000,  # 2025-06-01
        "tcdate": 1727000000000,
        "tmdate": 1748736000000,
        "invitations": [f"{VENUE}/-/Submission", f"{VENUE}/-/Post_Submission"],
        "domain": VENUE,
        "readers": ["everyone"],
        "writers": [VENUE],
        "signatures": [f"{VENUE}/Submission12/Authors"],
        "content": {
            "title": {"value": title},
            "authors": {"value": authors if authors is not None else ["Ada Lovelace"]},
            "authorids": {"value": ["~Ada_Lovelace1"]},
            "keywords": {"value": ["attention", "sparsity"]},
            "abstract": {"value": abstract or f"We propose {title.lower()}."},
            "pdf": {"value": f"/pdf/{forum}.pdf"},
            "venue": {"value": venue},
            "venueid": {"value": venueid},
            "_bibtex": {"value": f"@inproceedings{{lovelace2026,\ntitle={{{title}}}\n}}"},
            "TLDR": {"value": "Short."},
        },
    }


def notes_page(notes: list[dict[str, object]]) -> bytes:
    return json.dumps({"notes": notes, "count": len(notes)}).encode()
