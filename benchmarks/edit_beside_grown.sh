#!/bin/bash
# A folder of a kept file that grew (two days appended as gzip members) and a small file before
# it; the small file edited in the middle, the next `search` timed and the parts listed.
#
#     benchmarks/edit_beside_grown.sh TREE    # TREE: the checkout to run; PYTHON, WORK may be set
set -e
code=$(cd "$1" && pwd)
export WORK=${WORK:-/tmp/edit-beside-grown}
rm -rf "$WORK" && mkdir -p "$WORK/papers"
export HOME=$WORK XDG_DATA_HOME=$WORK/data XDG_CONFIG_HOME=$WORK/config TUI_READER_CACHE=$WORK/cache
run() { (cd "$code" && PYTHONPATH=. "${PYTHON:-python}" -m tui_reader "$@"); }
zcat /tmp/corpus-100k.jsonl.gz | head -n 98000 | gzip -1 > "$WORK/papers/kept-100k.jsonl.gz"
zcat /tmp/corpus-100k.jsonl.gz | tail -n 200 > "$WORK/papers/beside-two.jsonl"
run search neural "$WORK/papers" --limit 1 > /dev/null
for lines in 98001,99000p 99001,99800p; do
  zcat /tmp/corpus-100k.jsonl.gz | sed -n "$lines" | gzip -1 >> "$WORK/papers/kept-100k.jsonl.gz"
  run search neural "$WORK/papers" --limit 1 > /dev/null
done
"${PYTHON:-python}" - <<'PY'
import os
path = os.environ["WORK"] + "/papers/beside-two.jsonl"
text = open(path, "rb").read()
place = text.index(b"the", len(text) // 2)
open(path, "wb").write(text[:place] + b"THE" + text[place + 3 :])
PY
uptime
/usr/bin/time -f "the search after the edit: %e s wall, %U+%S s CPU, %M KB" \
  bash -c "cd '$code' && PYTHONPATH=. '${PYTHON:-python}' -m tui_reader search neural '$WORK/papers' --limit 3"
run cache list --format jsonl
