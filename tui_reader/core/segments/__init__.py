"""Papers and their index kept in parts, as core.index_cache keeps them.

`ranges` says where a part's papers come from (a byte range of a file) and whether the file
still holds them; `part` makes, writes and opens a part (its papers' columns and their
index); `papers_view` and `entry` read an entry's parts as one store and one index.
"""
