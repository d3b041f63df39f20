"""The HTTP layer of every fetch: polite to the services and robust against the network.

One httpx client (one connection) serves a whole fetch. Before each request to a service it
waits until `min_interval` seconds have passed since the previous request to it began (arXiv
asks for 3). A 429 or 5xx answer, or a connection that drops, is tried again after the wait
the answer's Retry-After gives (ASCII digits of seconds, or an HTTP date; anything else is as
if absent), else after a backoff that doubles each time. A service that cannot be reached at
all on the first request fails at once, without retries: the machine is most likely offline.

Every request is bounded. Each step (connect, read a chunk...) has a timeout, and the whole
request, its answer read to the end, a deadline: a service dripping its answer fails without
retries, as a retry would drip as long. An answer is read as it comes, decompressed, and given
up past MAX_ANSWER bytes. Redirects are followed on the host asked only, at most MAX_REDIRECTS
of them: one to another host (a service that moved is given its new address in the config)
or to anything but http(s) fails at once.

Time is read and spent through `monotonic` and `sleep` of this module, and the defaults are
read when a client is made, so tests replace them.
"""

import contextlib
import email.utils
import os
import socket
import threading
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from time import monotonic, sleep
from typing import Any
from urllib.parse import unquote_plus, urlsplit

import httpx

from tui_reader import __version__
from tui_reader.core.text import clean

TIMEOUT = 30.0  # seconds for any one step of a request (connect, read a chunk...)
DEADLINE = 60.0  # seconds for a whole request, its answer read to the end
MAX_ANSWER = 64_000_000  # bytes of an answer, decompressed (a page of arXiv's: about 1 MB)
MAX_REDIRECTS = 5
RETRIES = 4
BACKOFF = 5.0  # seconds before the first retry; doubled for each further one
MAX_BACKOFF = 120.0
MAX_RETRY_AFTER = 600.0  # a longer Retry-After gives up at once, saying to come back later
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
DAY = 86_400.0


class FetchError(Exception):
    """A request that failed for good; the message is one line saying why."""


class Unreachable(FetchError):
    """The service could not be reached at all: offline, or a wrong address."""


class Refused(FetchError):
    """The service answered with an error that trying again will not change (4xx)."""

    def __init__(self, message: str, response: httpx.Response) -> None:
        super().__init__(message)
        self.response = response


@dataclass(frozen=True)
class Service:
    """A web service as the user knows it ("arXiv"), where it is, and how often it may be asked."""

    name: str
    url: str
    min_interval: float


def base_url(variable: str, default: str, configured: str = "") -> str:
    """The URL in the environment variable, else the one the config file gives, else the
    default; ValueError when the variable holds something that is not an http(s) URL."""
    url = os.environ.get(variable, "").strip() or configured or default
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"${variable} is not an http(s) URL: {url!r}")
    return url


def retry_after(response: httpx.Response) -> float | None:
    """The seconds a Retry-After header asks to wait: ASCII digits, or an HTTP date. None for
    anything else (a fraction, a sign, another script's digits, a date out of range), as if
    the header were absent."""
    value = response.headers.get("Retry-After", "").strip()
    if not value.isascii():
        return None
    if value.isdigit():
        digits = value.lstrip("0") or "0"
        return float(digits) if len(digits) <= 9 else 1e9  # past a day either way
    try:
        when = email.utils.parsedate_to_datetime(value)
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        seconds = (when - datetime.now(timezone.utc)).total_seconds()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return max(0.0, seconds)


def _how_long(seconds: float) -> str:
    return f"{seconds / 60:.0f} minutes" if seconds <= DAY else "more than a day"


def _shown(text: str | httpx.URL) -> str:
    """An address as a reader reads it: decoded, in one line, not too long."""
    text = clean(unquote_plus(str(text)))
    return text if len(text) <= 200 else text[:199] + "…"


def _problem(error: httpx.TransportError) -> str:
    if isinstance(error, httpx.TimeoutException):
        return "no answer in time"
    reason = str(error).strip() or type(error).__name__
    # "[Errno 111] Connection refused" -> "connection refused"
    reason = reason.split("] ", 1)[-1]
    return reason[:1].lower() + reason[1:]


class _Stop(Exception):
    """What ends a request for good, without retries; the message says why."""


class _Watchdog:
    """Ends a request that runs past its deadline (a timeout bounds each read, not their sum)
    by shutting its connection's socket, which wakes a read waiting on it. httpcore's trace
    extension tells the socket when the client connects; with one connection, the last one
    made is the one in use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self._running: object | None = None
        self.passed = False

    def trace(self, event: str, info: dict[str, Any]) -> None:
        if event.endswith(("connect_tcp.complete", "start_tls.complete")):
            stream = info.get("return_value")
            found = stream.get_extra_info("socket") if stream is not None else None
            with self._lock:
                self._socket = found if isinstance(found, socket.socket) else None
                if self.passed:
                    self._shut()

    @contextlib.contextmanager
    def running(self, seconds: float) -> Iterator[None]:
        """A deadline `seconds` from now: a read that fails past it raises _Stop."""
        token = object()
        timer = threading.Timer(seconds, self._pass, (token,))
        timer.daemon = True
        with self._lock:
            self._running, self.passed = token, False
        timer.start()
        try:
            yield
        except httpx.TransportError:
            if self.passed:
                raise _Stop(f"too slow, no whole answer in {seconds:g} s") from None
            raise
        finally:
            timer.cancel()
            with self._lock:
                self._running = None

    def _pass(self, token: object) -> None:
        with self._lock:
            if self._running is token:
                self.passed = True
                self._shut()

    def _shut(self) -> None:
        if self._socket is not None:
            with contextlib.suppress(OSError):
                # socket.socket's own: SSLSocket.shutdown would drop its TLS under the reader
                socket.socket.shutdown(self._socket, socket.SHUT_RDWR)


def _check_redirect(response: httpx.Response) -> None:
    """_Stop for a redirect to anything but an http(s) address on the host asked; run on
    every answer, before httpx reads its Location."""
    if not response.has_redirect_location:
        return
    location = response.headers["Location"]
    try:
        target = response.request.url.join(location)
    except httpx.InvalidURL:
        raise _Stop(f"redirects to {_shown(location)!r}, which is not an address") from None
    if target.scheme not in ("http", "https"):
        raise _Stop(f"redirects to {_shown(location)}, which is not an http(s) address")
    if target.host != response.request.url.host:
        raise _Stop(
            f"redirects to another host, {_shown(target.host)}: not followed (if the service "
            "moved there, give its new address in the config's [sources])"
        )


def _decoded(response: httpx.Response) -> Iterator[bytes]:
    """The answer's content as it comes, its Content-Encoding undone (gzip or deflate, which
    the client asks for; _Stop for any other), in pieces of at most a megabyte: a gzip bomb
    is never inflated whole."""
    encoding = response.headers.get("Content-Encoding", "")
    coding = encoding.strip().lower()
    if coding in ("", "identity"):
        yield from response.iter_raw()
        return
    if coding not in ("gzip", "x-gzip", "deflate"):
        raise _Stop(f"answered in an encoding it cannot read ({_shown(encoding)})")
    inflate = zlib.decompressobj(zlib.MAX_WBITS | 32)  # a gzip or a zlib header
    for chunk in response.iter_raw():
        while chunk:
            yield inflate.decompress(chunk, 1 << 20)
            chunk = inflate.unconsumed_tail
    yield inflate.flush()


class PoliteClient:
    """Sends GET requests to services, one at a time, spaced, retried and bounded."""

    def __init__(
        self,
        *,
        timeout: float | None = None,
        retries: int | None = None,
        on_wait: Callable[[str], None] | None = None,
        clock: Callable[[], float] | None = None,
        pause: Callable[[float], None] | None = None,
    ) -> None:
        self._client = httpx.Client(
            timeout=httpx.Timeout(TIMEOUT if timeout is None else timeout),
            limits=httpx.Limits(max_connections=1, max_keepalive_connections=1),
            headers={"User-Agent": f"tui-reader/{__version__}", "Accept-Encoding": "gzip, deflate"},
            event_hooks={"response": [_check_redirect]},
        )
        self._retries = RETRIES if retries is None else retries
        self._deadline = DEADLINE
        self._max_answer = MAX_ANSWER
        self._watchdog = _Watchdog()
        self._on_wait = on_wait or (lambda message: None)
        self._clock = clock or monotonic
        self._pause = pause or sleep
        self._last: dict[str, float] = {}  # service name: when its last request began
        self._reached: set[str] = set()

    def __enter__(self) -> "PoliteClient":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._client.close()

    def _space(self, service: Service) -> None:
        if service.name in self._last:
            wait = self._last[service.name] + service.min_interval - self._clock()
            if wait > 0:
                self._pause(wait)
        self._last[service.name] = self._clock()

    def get(self, service: Service, params: Mapping[str, str | int]) -> httpx.Response:
        """The service's answer to a GET with these query parameters: a 2xx response.

        Raises Unreachable when the first request cannot connect, Refused on a 4xx other
        than 429, and FetchError when the retries are used up, the wait asked is too long, or
        the request went wrong in a way trying again will not change (too slow, too big, a
        redirect not followed).
        """
        host = urlsplit(service.url).netloc
        for attempt in range(self._retries + 1):
            self._space(service)
            try:
                with self._watchdog.running(self._deadline):
                    response = self._answer(service, params)
            except _Stop as error:
                raise FetchError(f"{service.name} at {host}: {error}") from None
            except httpx.TransportError as error:
                problem = _problem(error)
                if isinstance(error, httpx.ConnectError) and service.name not in self._reached:
                    raise Unreachable(
                        f"cannot reach {service.name} at {host} ({problem}; offline?)"
                    ) from None
                delay = None
            else:
                self._reached.add(service.name)
                status = response.status_code
                if status < 400:
                    return response
                problem = f"{status} {response.reason_phrase}".strip()
                if status not in RETRY_STATUSES:
                    raise Refused(f"{service.name} refused the request ({problem})", response)
                delay = retry_after(response)
            if attempt == self._retries:
                raise FetchError(
                    f"{service.name} at {host}: {problem}, still after {self._retries} retries"
                )
            if delay is None:
                delay = min(BACKOFF * 2**attempt, MAX_BACKOFF)
            elif delay > MAX_RETRY_AFTER:
                raise FetchError(
                    f"{service.name} asks to wait {_how_long(delay)} ({problem}): try again later"
                )
            self._on_wait(f"{service.name}: {problem}; trying again in {delay:.0f} s")
            self._pause(delay)
        raise AssertionError("unreachable")  # the loop returns or raises

    def _answer(self, service: Service, params: Mapping[str, str | int]) -> httpx.Response:
        """The answer to one GET, its redirects followed; read unless it is to be retried."""
        request = self._client.build_request(
            "GET", service.url, params=dict(params), extensions={"trace": self._watchdog.trace}
        )
        asked = request.url
        for _ in range(MAX_REDIRECTS + 1):
            response = self._client.send(request, stream=True)
            try:
                if response.next_request is None:
                    return self._read(response, asked)
                request = response.next_request
            finally:
                response.close()
        raise _Stop(f"more than {MAX_REDIRECTS} redirects")

    def _read(self, response: httpx.Response, asked: httpx.URL) -> httpx.Response:
        """The response with its content, read as it comes and decompressed: _Stop past
        MAX_ANSWER bytes, and before reading when the answer says it is longer."""
        if response.status_code in RETRY_STATUSES:
            return response  # its status and headers are all a retry needs
        too_big = _Stop(f"the answer to {_shown(asked)} is over {self._max_answer:,} bytes")
        length = response.headers.get("Content-Length", "")
        if length.isascii() and length.isdigit() and int(length) > self._max_answer:
            raise too_big
        content = bytearray()
        try:
            for piece in _decoded(response):
                content += piece
                if len(content) > self._max_answer:
                    raise too_big
        except zlib.error:
            raise _Stop(f"the answer to {_shown(asked)} could not be decompressed") from None
        dropped = ("content-encoding", "content-length", "transfer-encoding")
        return httpx.Response(
            response.status_code,
            headers=[(k, v) for k, v in response.headers.multi_items() if k.lower() not in dropped],
            content=bytes(content),
            request=response.request,
            extensions={"reason_phrase": response.extensions.get("reason_phrase", b"")},
        )
