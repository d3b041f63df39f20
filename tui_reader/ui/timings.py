"""How long the reader waits before it acts, and how its index grows while papers load: one
value handed to the app, so that a test asks for its own instead of changing the module's."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Timings:
    """Seconds, but for the two counts of papers at the end."""

    # The cursor rests on a paper this long before its related papers are looked for: not at
    # every key of a search or a scroll.
    related_after: float = 0.6
    # Without a new count this long the header shows it, and without a new list the detail
    # pane shows the paper a search put under the cursor: while keys come, each draws the list
    # alone. The pane waits for the typing to pause, not for a key to come late: it lays the
    # whole screen out and draws it again, which held the next key back when done between keys.
    settled_after: float = 0.1
    pane_settled_after: float = 0.25
    reload_every: float = 2.0  # between looks for changes another program saved
    saving_shown_after: float = 0.3  # a save may take this long before the header says so
    # In the for-you order a change to the library is drawn with the order that follows it,
    # in one frame, unless that order takes longer than this.
    order_wait: float = 0.3
    # Most a key waits for a dialog flow to act on the answer the keys before it gave, and,
    # in the list, for the results of the query typed before it.
    flow_wait: float = 0.5
    results_wait: float = 2.0
    post_every: float = 0.25  # between showing the papers loaded so far
    index_poll: float = 0.2  # between looks at how many papers have loaded
    # Most a quit waits for the indexing to stop its pool of processes: killed at exit, a
    # pool may leave the system semaphores to clean up (and say so, after the reader).
    stopping_wait: float = 5.0
    recount_every: float = 2.0  # between counts of the saved searches while the feeds are open
    # Papers are indexed as they load. The filter finds among the first `first_indexed` once
    # they are, then among `index_growth` times as many each time, up to half the papers
    # expected: each such index is made anew, and held until the next.
    first_indexed: int = 10_000
    index_growth: int = 2
