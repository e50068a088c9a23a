"""The voice of a claim (who its text says does what it claims), from the quote, its line and its channel.

Ambiguity is recorded, not resolved: a list item without a subject inside a description that addresses the model in
the second person reads as the server's doing, the model's or the pair's (kb/doctrine.yaml `voice`); the verdict
then says which reading it judged (kb/verdicts.yaml `judged`)."""

from __future__ import annotations

import re
from dataclasses import replace

from auditor.model import Record


def classify(quote: str, channel_kind: str, prefix: str, addressed: bool, kb: dict) -> tuple[str, str, str | None]:
    """(voice, the basis of that voice, the addressee when the quote speaks to the channel's reader).

    PREFIX is the text before the quote on its line; ADDRESSED says whether the channel's text speaks to its reader
    in the second person. Voices: server, addressee, ambiguous."""
    v = kb["voice"]
    addressee = v["addressees"].get(channel_kind, "reader")
    for s in v["subjects"]:
        m = re.match(s["pattern"], quote.strip())
        if m:
            if s["agent"] == "addressee":
                return "addressee", f"the quote's subject {m.group(0)!r} is the reader of the {channel_kind} channel, the {addressee}", addressee
            return "server", f"the quote's subject {m.group(0)!r} is the tool or the server", None
    item = re.fullmatch(v["list_item"], prefix) is not None
    if item and addressed and channel_kind in v["ambiguous_channels"]:
        return "ambiguous", (f"a list item with no subject in the {channel_kind} channel, whose text addresses the {addressee} "
                             "in the second person"), addressee
    where = "a list item with no subject" if item else "text with no subject of its own"
    if channel_kind in v["ambiguous_channels"]:
        return "server", f"{where} in the {channel_kind} channel, whose text does not address its reader in the second person", None
    return "server", f"{where} in the {channel_kind} channel, which speaks for the server", None


def addressed(text: str, kb: dict) -> bool:
    return re.search(kb["voice"]["second_person"], text) is not None


def attrs(voice: str, basis: str, addressee: str | None, doctrine: dict, rules: dict) -> dict:
    """The claim attributes of a voice: voice (stated with its basis), readings, and the reading the verdict judged."""
    who = addressee or "reader"
    readings = [r.format(addressee=who) for r in doctrine["voice"]["readings"][voice]]
    judged = rules["judged"][voice]
    reading = judged["reading"].format(addressee=who)
    fill = {"addressee": who, "others": ", ".join(r for r in readings if r != reading) or "none"}
    label = {"server": "server", "addressee": f"the {who} (addressed in the second person)",
             "ambiguous": "ambiguous between " + ", ".join(readings[:-1]) + " and " + readings[-1]}[voice]
    return {"voice": f"{label}: {basis}", "voice_kind": voice, **({"addressee": who} if addressee else {}), "readings": readings,
            "reading": reading, "reading_note": judged["note"].format(**fill)}


def structured(c: Record, doctrine: dict, rules: dict) -> Record:
    """A claim read from structured statements (README tool lists, annotations): its voice from its own quote."""
    kind = (c.attrs.get("channel") or "").split(":", 1)[0]
    voice, basis, addressee = classify(c.attrs.get("quote") or "", kind, "", False, doctrine)
    return replace(c, attrs={**c.attrs, **attrs(voice, basis, addressee, doctrine, rules)})
