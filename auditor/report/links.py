"""Link targets of the reports: web addresses of anchors at the pinned commit, and record ids made HTML ids. Pure."""

from __future__ import annotations

import hashlib
import re
from urllib.parse import quote

from auditor.model import Anchor


def blob_url(base: str, commit: str, anchor: Anchor) -> str:
    """The web address of ANCHOR's lines in the file at COMMIT; the path percent-encoded (inert in a Markdown link)."""
    path = quote(anchor.path, safe="/")
    start, end = anchor.start_line, anchor.end_line
    if base.startswith("https://gitlab.com/"):
        return f"{base}/-/blob/{commit}/{path}#L{start}" + (f"-{end}" if end != start else "")
    return f"{base}/blob/{commit}/{path}#L{start}" + (f"-L{end}" if end != start else "")


def anchor_id(record_id: str, kind: str = "") -> str:
    """The HTML id of a record's row: its id's prefix (CLM, FND, ...) and a hash of the whole id; deterministic and
    made only of [a-z0-9-], whatever the id holds."""
    prefix = kind or re.sub(r"[^a-z]", "", record_id.split(":", 1)[0].lower())[:5] or "r"
    return f"{prefix}-{hashlib.sha1(record_id.encode('utf-8', 'surrogatepass')).hexdigest()[:10]}"
