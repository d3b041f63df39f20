"""A lean search engine: papers' words and text in a few flat numpy arrays.

`build.build_arrays` indexes papers into named arrays (and a file of their folded text,
which `folded_text` reads), `build.GrowingIndex` the same as papers keep coming, `disk` keeps
them in a versioned folder opened by memory map, and `index.FlatIndex` answers queries over
them (it meets core.engine.SearchEngine), kept whole or in parts (`parts`, `lexicon`), which
rank as one index of all their papers; `split` cuts an index into parts, `merge` joins parts.
"""
