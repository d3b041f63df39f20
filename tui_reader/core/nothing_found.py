"""Why a query finds no paper, when a filter it must pass names what no paper has: the
reader says it in place of the list, the commands on stderr, in the same words."""

from collections.abc import Collection

from tui_reader.core.filtering import any_has_field
from tui_reader.core.metadata_filter import FIELDS
from tui_reader.core.query import Query
from tui_reader.core.store import PaperStore


def why_nothing(query: Query, tags: Collection[str], papers: PaperStore) -> str:
    """The first filter the query must pass that names what no paper has: a tag (`tags`: the
    library's; a tag being typed, one that no tag starts with), or a field no paper among
    `papers` has (`year:` where none has a year); "" when there is none such."""
    for state in query.states:
        if not state.tag or state.negated:
            continue
        if state.prefix and not any(tag.startswith(state.tag) for tag in tags):
            return f"no paper has a tag starting with #{state.tag}"
        if not state.prefix and state.tag not in tags:
            return f"no paper has the tag #{state.tag}"
    for test in query.metadata:
        if not test.negated and not any_has_field(papers, test):
            return f"no paper has {FIELDS[test.scope]}"
    return ""
