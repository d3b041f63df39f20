"""Back and forward over jumps, as plain places: the workspace's are a query and a paper."""

from tui_reader.ui.history import History


def test_back_returns_where_a_jump_started_and_forward_where_going_back_did() -> None:
    history = History[str]()
    history.jumped("home")
    assert history.back("tag") == "home"
    assert history.forward("home") == "tag"
    assert history.forward("tag") is None
    assert history.back("tag") == "home"


def test_with_nowhere_to_go_there_is_no_place() -> None:
    history = History[str]()
    assert history.back("home") is None
    assert history.forward("home") is None


def test_a_place_is_remembered_once_and_going_back_skips_where_the_reader_is() -> None:
    history = History[str]()
    history.jumped("a")
    history.jumped("a")  # a second jump from the same place
    history.jumped("b")
    history.jumped("b")
    assert history.back("b") == "a"  # b is where the reader is: a jump that went nowhere
    assert history.back("a") is None


def test_two_jumps_from_one_place_leave_it_once() -> None:
    history = History[str]()
    history.jumped("a")
    history.jumped("a")
    assert history.back("c") == "a"
    assert history.back("d") is None  # moved on from a without a jump: a is not kept twice


def test_a_new_jump_forgets_the_way_forward() -> None:
    history = History[str]()
    history.jumped("a")
    assert history.back("b") == "a"
    history.jumped("a")
    assert history.forward("c") is None
    assert history.back("c") == "a"
