"""Fetching papers from arXiv and OpenReview into collection files (JSON Lines, our own fields).

- `record`: the fields a fetched paper carries, written one JSON object a line.
- `polite`: the HTTP layer every fetch goes through: one client, a pause between requests to
  each service, retries with backoff on 429/503 and dropped connections, honouring Retry-After;
  a deadline, a size cap and same-host redirects bound every request.
- `arxiv`: the arXiv Atom API (searches, newest first) and OAI-PMH (bulk harvests).
- `openreview`: a venue's notes from the OpenReview API v2.
- `collection`: the file a fetch appends to, resumable after an interruption, without
  duplicates, and the loop that drives a fetch into it.
"""
