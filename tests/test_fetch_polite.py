"""The HTTP layer: spacing between requests, retries honouring Retry-After, timeouts, offline."""

import email.utils
import gzip
import time
import zlib

import pytest

from tests.fetch_helpers import FakeTime, Reply, Script, closed_port_url, fake_time, serving
from tui_reader.core.sources import polite
from tui_reader.core.sources.polite import FetchError, PoliteClient, Refused, Service, Unreachable


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    return fake_time(monkeypatch)


def service(url: str, interval: float = 3.0) -> Service:
    return Service("arXiv", url, interval)


def test_requests_to_a_service_are_spaced_by_its_interval(clock: FakeTime) -> None:
    with serving(lambda params: Reply(b"ok")) as server, PoliteClient() as client:
        for start in range(3):
            assert client.get(service(server.url), {"start": start}).content == b"ok"
    assert clock.waits == [3.0, 3.0]
    assert [r["start"] for r in server.requests] == ["0", "1", "2"]


def test_only_the_time_left_of_the_interval_is_waited(clock: FakeTime) -> None:
    with serving(lambda params: Reply(b"ok")) as server, PoliteClient() as client:
        client.get(service(server.url), {})
        clock.now += 2.0  # the caller took two seconds over the first page
        client.get(service(server.url), {})
    assert clock.waits == [1.0]


def test_each_service_has_its_own_interval(clock: FakeTime) -> None:
    with serving(lambda params: Reply(b"ok")) as server, PoliteClient() as client:
        arxiv, openreview = service(server.url, 3.0), Service("OpenReview", server.url, 1.0)
        client.get(arxiv, {})
        client.get(openreview, {})
        client.get(openreview, {})
        client.get(arxiv, {})
    assert clock.waits == [1.0, 2.0]  # arXiv's second request: 3 s after its first


def test_503_with_retry_after_in_seconds_is_waited_then_retried(clock: FakeTime) -> None:
    script = Script(Reply(b"busy", 503, {"Retry-After": "7"}), Reply(b"ok"))
    notes: list[str] = []
    with serving(script) as server, PoliteClient(on_wait=notes.append) as client:
        assert client.get(service(server.url), {"q": "x"}).content == b"ok"
    assert clock.waits == [7.0]  # and no further spacing: 7 s is more than 3
    assert len(server.requests) == 2
    assert notes == ["arXiv: 503 Service Unavailable; trying again in 7 s"]


def test_retry_after_as_an_http_date_is_honoured(clock: FakeTime) -> None:
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    script = Script(Reply(b"busy", 503, {"Retry-After": later}), Reply(b"ok"))
    with serving(script) as server, PoliteClient() as client:
        client.get(service(server.url), {})
    assert len(clock.waits) == 1
    assert 27.0 <= clock.waits[0] <= 31.0, clock.waits


def test_429_without_retry_after_backs_off_doubling(clock: FakeTime) -> None:
    script = Script(Reply(b"", 429), Reply(b"", 429), Reply(b"", 502), Reply(b"ok"))
    with serving(script) as server, PoliteClient() as client:
        assert client.get(service(server.url), {}).content == b"ok"
    assert clock.waits == [polite.BACKOFF, 2 * polite.BACKOFF, 4 * polite.BACKOFF]


def test_a_service_that_stays_busy_fails_after_the_retries(clock: FakeTime) -> None:
    with (
        serving(lambda params: Reply(b"", 503)) as server,
        PoliteClient(retries=2) as client,
        pytest.raises(FetchError, match="503 Service Unavailable, still after 2 retries"),
    ):
        client.get(service(server.url), {})
    assert len(server.requests) == 3


def test_a_very_long_retry_after_gives_up_at_once(clock: FakeTime) -> None:
    script = Script(Reply(b"", 503, {"Retry-After": "3600"}))
    with (
        serving(script) as server,
        PoliteClient() as client,
        pytest.raises(FetchError, match="asks to wait 60 minutes"),
    ):
        client.get(service(server.url), {})
    assert clock.waits == []


def test_a_refusal_is_not_retried(clock: FakeTime) -> None:
    with (
        serving(Script(Reply(b"bad query", 400))) as server,
        PoliteClient() as client,
        pytest.raises(Refused, match=r"arXiv refused the request \(400 Bad Request\)"),
    ):
        client.get(service(server.url), {})
    assert len(server.requests) == 1


def test_a_dropped_connection_is_retried(clock: FakeTime) -> None:
    script = Script(Reply(b"ok"), Reply(drop=True), Reply(b"again"))
    with serving(script) as server, PoliteClient() as client:
        client.get(service(server.url), {})
        assert client.get(service(server.url), {}).content == b"again"
    assert clock.waits == [3.0, polite.BACKOFF]


def test_offline_fails_at_once_in_one_line(clock: FakeTime) -> None:
    with PoliteClient() as client, pytest.raises(Unreachable) as caught:
        client.get(service(closed_port_url()), {})
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("cannot reach arXiv at 127.0.0.1:")
    assert "connection refused" in message.lower()
    assert clock.waits == []


def test_every_request_has_a_timeout(clock: FakeTime) -> None:
    with PoliteClient(timeout=12.5) as client:
        timeout = client._client.timeout
    assert (timeout.connect, timeout.read, timeout.write, timeout.pool) == (12.5,) * 4


def test_an_answer_that_does_not_come_in_time_is_retried(clock: FakeTime) -> None:
    def slow(params: dict[str, str]) -> Reply:
        if len(calls) == 0:
            calls.append(1)
            time.sleep(1.0)
        return Reply(b"ok")

    calls: list[int] = []
    with serving(slow) as server, PoliteClient(timeout=0.2) as client:
        assert client.get(service(server.url), {}).content == b"ok"
    assert clock.waits == [polite.BACKOFF]


@pytest.mark.parametrize("value", ["ftp://127.0.0.1/x", "nonsense", "http://"])
def test_a_base_url_from_the_environment_must_be_http(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("TUI_READER_ARXIV_API", value)
    with pytest.raises(ValueError, match=r"^\$TUI_READER_ARXIV_API is not an http\(s\) URL"):
        polite.base_url("TUI_READER_ARXIV_API", "https://default.invalid/")


def test_the_default_base_url_is_used_when_the_variable_is_unset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TUI_READER_ARXIV_API", raising=False)
    assert polite.base_url("TUI_READER_ARXIV_API", "https://default.invalid/q") == (
        "https://default.invalid/q"
    )


# --- Retry-After read strictly


@pytest.mark.parametrize(
    "value",
    [
        "²",  # a digit to str.isdigit, not to float
        "٣",  # an Arabic-Indic three: float reads it
        "Fri, 31 Dec 2025 99999999999999999999:00:00 GMT",  # an hour too large for C
    ],
)
def test_a_retry_after_that_is_not_ascii_digits_or_a_date_is_as_if_absent(
    clock: FakeTime, value: str
) -> None:
    script = Script(Reply(b"busy", 503, {"Retry-After": value}), Reply(b"ok"))
    with serving(script) as server, PoliteClient() as client:
        assert client.get(service(server.url), {}).content == b"ok"
    assert clock.waits == [polite.BACKOFF]


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("9" * 400, id="400-nines"),  # a float of it is inf
        "99999999999999999999999",
        "Fri, 31 Dec 9999 23:59:59 GMT",
    ],
)
def test_a_retry_after_past_a_day_is_said_without_an_absurd_number(
    clock: FakeTime, value: str
) -> None:
    with (
        serving(Script(Reply(b"", 503, {"Retry-After": value}))) as server,
        PoliteClient() as client,
        pytest.raises(FetchError) as caught,
    ):
        client.get(service(server.url), {})
    assert str(caught.value) == (
        "arXiv asks to wait more than a day (503 Service Unavailable): try again later"
    )
    assert clock.waits == []


# --- A deadline for the whole request


@pytest.fixture
def deadline(monkeypatch: pytest.MonkeyPatch) -> float:
    monkeypatch.setattr(polite, "DEADLINE", 0.5)
    return 0.5


@pytest.mark.parametrize("drip_head", [False, True], ids=["body", "head"])
def test_an_answer_dripping_past_the_deadline_fails_without_retries(
    clock: FakeTime, deadline: float, drip_head: bool
) -> None:
    dripping = Reply(b"x" * 100, drip=0.05, drip_head=drip_head)  # 5 s and more
    with (
        serving(lambda params: dripping) as server,
        PoliteClient(timeout=2.0) as client,
        pytest.raises(FetchError) as caught,
    ):
        client.get(service(server.url), {"start": 0})
    assert server.whole == []  # the client hung up at the deadline, not read to the end
    port = server.url.split(":")[2].split("/")[0]
    assert str(caught.value) == (f"arXiv at 127.0.0.1:{port}: too slow, no whole answer in 0.5 s")
    assert len(server.requests) == 1
    assert clock.waits == []


def test_the_deadline_holds_on_a_connection_kept_from_a_request_before(
    clock: FakeTime, deadline: float
) -> None:
    script = Script(Reply(b"ok"), Reply(b"x" * 100, drip=0.05))
    with serving(script) as server, PoliteClient(timeout=2.0) as client:
        assert client.get(service(server.url), {}).content == b"ok"
        with pytest.raises(FetchError, match="too slow"):
            client.get(service(server.url), {})
    assert len(server.whole) == 1  # the second answer was left unread at the deadline


def test_a_quick_answer_after_a_slow_one_is_read(clock: FakeTime, deadline: float) -> None:
    script = Script(Reply(b"x" * 100, drip=0.05), Reply(b"ok"))
    with serving(script) as server, PoliteClient(timeout=2.0) as client:
        with pytest.raises(FetchError, match="too slow"):
            client.get(service(server.url), {})
        time.sleep(deadline)  # past the first request's deadline: it must not end this one
        assert client.get(service(server.url), {}).content == b"ok"


# --- Answers of a bounded size


@pytest.fixture
def cap(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(polite, "MAX_ANSWER", 100_000)
    return 100_000


@pytest.mark.parametrize(
    "reply",
    [
        Reply(b"x" * 100_001),
        Reply(b"x", headers={"Content-Length": "1500000000"}),
        Reply(b"x" * 65_536, repeat=1_000),  # 64 MB in chunks, no length said
        Reply(gzip.compress(b"\0" * 10_000_000), headers={"Content-Encoding": "gzip"}),
    ],
    ids=["over", "said-too-long", "chunked", "gzip-bomb"],
)
def test_an_answer_over_the_cap_is_not_read_and_named(
    clock: FakeTime, cap: int, reply: Reply
) -> None:
    with (
        serving(Script(reply)) as server,
        PoliteClient() as client,
        pytest.raises(FetchError) as caught,
    ):
        client.get(service(server.url), {"search_query": "cat:cs.LG", "start": 200})
    message = str(caught.value)
    assert message.startswith("arXiv at 127.0.0.1:")
    assert message.endswith(
        f"the answer to {server.url}?search_query=cat:cs.LG&start=200 is over 100,000 bytes"
    )
    assert len(server.requests) == 1
    assert clock.waits == []


def test_an_answer_in_two_layers_of_gzip_is_refused(clock: FakeTime) -> None:
    bomb = gzip.compress(gzip.compress(b"\0" * 10_000_000))
    with (
        serving(Script(Reply(bomb, headers={"Content-Encoding": "gzip, gzip"}))) as server,
        PoliteClient() as client,
        pytest.raises(FetchError, match=r"answered in an encoding it cannot read \(gzip, gzip\)"),
    ):
        client.get(service(server.url), {})


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_a_compressed_answer_is_read_up_to_the_cap_exactly(
    clock: FakeTime, cap: int, encoding: str
) -> None:
    compress = gzip.compress if encoding == "gzip" else zlib.compress
    at_cap = b"papers " * (cap // 7) + b"x" * (cap % 7)
    script = Script(
        Reply(compress(at_cap), headers={"Content-Encoding": encoding}),
        Reply(compress(at_cap + b"x"), headers={"Content-Encoding": encoding}),
    )
    with serving(script) as server, PoliteClient() as client:
        assert client.get(service(server.url), {}).content == at_cap
        with pytest.raises(FetchError, match=f"is over {cap:,} bytes"):
            client.get(service(server.url), {})


# --- Redirects


def test_a_redirect_to_a_file_is_refused_at_once(clock: FakeTime) -> None:
    script = Script(Reply(b"", 302, {"Location": "file:///etc/passwd"}))
    with (
        serving(script) as server,
        PoliteClient() as client,
        pytest.raises(FetchError) as caught,
    ):
        client.get(service(server.url), {})
    assert str(caught.value).endswith(
        "redirects to file:///etc/passwd, which is not an http(s) address"
    )
    assert len(server.requests) == 1
    assert clock.waits == []


def test_a_redirect_is_followed_on_the_same_host_only(clock: FakeTime) -> None:
    script = Script(Reply(b"", 307, {"Location": "/api?moved=1"}))
    with serving(script) as server, PoliteClient() as client:
        elsewhere = server.url.replace("127.0.0.1", "localhost")
        script.replies.append(Reply(b"", 301, {"Location": elsewhere}))
        with pytest.raises(FetchError) as caught:
            client.get(service(server.url), {})
    assert "redirects to another host, localhost: not followed" in str(caught.value)
    assert server.requests == [{}, {"moved": "1"}]
    assert clock.waits == []


def test_redirects_without_end_stop_at_once(clock: FakeTime) -> None:
    with (
        serving(lambda params: Reply(b"", 302, {"Location": "/api"})) as server,
        PoliteClient() as client,
        pytest.raises(FetchError, match=f"more than {polite.MAX_REDIRECTS} redirects"),
    ):
        client.get(service(server.url), {})
    assert len(server.requests) == polite.MAX_REDIRECTS + 1
    assert clock.waits == []
