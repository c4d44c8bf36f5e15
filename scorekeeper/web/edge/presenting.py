"""A pulka version's presenter for the request (shared by every request of this process that reads that
version in that language), and the answers built of what it shows: files, share addresses, a busy PDF."""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable, Iterator
from functools import partial
from typing import cast
from urllib.parse import quote

from flask import Response, current_app, g, request, url_for

from ...i18n.words import Msg
from ...render.text import latin
from ..domain.pulkas import Pulka
from ..domain.refusals import ErrorCode, Refused
from ..store.cache import Section
from ..views.gate import Busy, Gate, Turn, Turns
from ..views.pulkas import Presenter
from . import errors
from .caller import caller
from .i18n import language

# Seconds: about what a 1,000-deal PDF takes, by when one of the PDFs ahead is likely done.
RETRY_AFTER = 5


def presenter(pulka: Pulka) -> Presenter:
    """The presenter of this pulka version in the request's language."""
    cache = cast(Section[Presenter], current_app.extensions["scorekeeper.presenters"])
    key = (pulka.uid, pulka.version, language())
    found = cache.get(key)
    if found is None:
        made = fresh(pulka)
        made.grew = partial(cache.grew, key)  # the parts it builds count in the cache's budget at once
        found = cache.put(key, made)
    return found


def answering(pulka: Pulka) -> Presenter:
    """The presenter for the answer of a write: kept by the new version when the write has committed (no
    idempotency key: the phones that watch the sheet then fetch it, and find what the answer built), else
    `fresh`, since a write under a key answers inside its transaction."""
    return presenter(pulka) if g.get("key") is None else fresh(pulka)


def fresh(pulka: Pulka) -> Presenter:
    """A presenter of its own, in the request's language: for the answer of a write, which is built in the
    write's transaction and must not be kept by a version that may still roll back."""
    return Presenter(pulka, language())


def pdf_turn() -> Turn:
    """The caller's way to a PDF (views.gate.Turns): its account when logged in, else the share link that lets it
    in, else its address (behind trusted proxies, the client's own: ProxyFix). One PDF at a time each."""
    who = caller()
    share = g.get("share_id")
    key = (("account", who.account.id) if who.account is not None
           else ("link", share) if share is not None else ("address", request.remote_addr or ""))
    return Turn(cast(Turns, current_app.extensions["scorekeeper.pdf"]), key)


_HOMES_LOCK = threading.Lock()


def home_gate(account_id: int) -> Gate:
    """One account's home list is made once at a time, one more waiting: the same list reloaded in many tabs at
    once holds two of the server's threads, never all, and the others' sheets keep theirs."""
    homes = cast(dict[int, Gate], current_app.extensions.setdefault("scorekeeper.homes", {}))
    with _HOMES_LOCK:
        return homes.setdefault(account_id, Gate(1))


def busy_list() -> Response:
    """503 and when to try again, for a home list asked for while two of the account's are being made."""
    body, status = errors.respond(Refused(Msg("Your list of pulkas is being shown in other tabs just now; try "
                                              "again in a moment."), code=ErrorCode.BUSY))
    response = current_app.make_response((body, status))
    response.headers["Retry-After"] = "2"
    return response


def download(data: str | bytes | Iterable[str], mimetype: str, filename: str) -> Response:
    """A file to save: every download of the app is made here, so that its name goes through `attachment`."""
    return Response(data, mimetype=mimetype, headers={"Content-Disposition": attachment(filename)})


# Characters of a download's name at most, its extension kept: a name beyond any file system's is cut.
NAME_MAX = 100
# Path separators, quotes and what Windows refuses in a file name, in the name a browser saves under.
_NOT_IN_NAMES = re.compile(r'[\\/"*:<>?|]')


def attachment(filename: str) -> str:
    """The Content-Disposition of a download named `filename` (RFC 6266): `filename="…"` of ASCII letters,
    digits, dots, hyphens and underscores for every browser (Cyrillic spelled in Latin letters), and, when the
    name holds more (Cyrillic, ₽), `filename*=UTF-8''…` percent-encoded (RFC 8187), which browsers prefer.
    Neither holds a path separator, a quote, a control, format or bidirectional character or a leading dot:
    a currency `../..` or `x";y=1` names a file, not a path nor another parameter."""
    name = _saved_name(filename)
    plain = _fit(re.sub(r"[^A-Za-z0-9._-]+", "_", latin(name)))
    header = f'attachment; filename="{plain}"'
    return header if plain == name else header + f"; filename*=UTF-8''{quote(name, safe='')}"


def _saved_name(filename: str) -> str:
    """`filename` as a name to save a file under, in any script: no control, format (U+202E) or line
    separator characters, spaces as plain spaces, no path separator nor quote."""
    shown = "".join(" " if unicodedata.category(ch).startswith("Z") else ch
                    for ch in unicodedata.normalize("NFC", filename) if not unicodedata.category(ch).startswith("C"))
    return _fit(" ".join(_NOT_IN_NAMES.sub("_", shown).split()))


def _fit(name: str) -> str:
    """A name without runs of dots (`..`), nor a dot or a space first (a hidden file) or last, of at most
    NAME_MAX characters, its extension kept (.csv, .pulya.json); "download" when nothing is left."""
    name = re.sub(r"\.{2,}", ".", name).strip(" .")
    found = re.search(r"(\.[A-Za-z0-9]{1,10}){1,2}$", name)
    ext = found.group() if found and found.start() else ""
    return (name[:len(name) - len(ext)][:NAME_MAX - len(ext)].rstrip(" .") or "download") + ext


# A streamed file leaves in pieces of about this many characters: few enough writes for the server, and
# never the whole file in memory however many rows it has.
PIECE = 64 * 1024


def csv_download(lines: Iterable[str], filename: str) -> Response:
    """A CSV file that a spreadsheet opens as UTF-8 (Excel takes the byte order mark for it; without it, Cyrillic
    names come out garbled), sent as its rows are written: a club's years of rows are never one string."""
    def pieces() -> Iterator[str]:
        piece, size = ["\ufeff"], 1
        for line in lines:
            piece.append(line)
            size += len(line)
            if size >= PIECE:
                yield "".join(piece)
                piece, size = [], 0
        yield "".join(piece)

    # Without the request's context: the rows are written from what the route read (and, for a player's deals,
    # from the store), so nothing of the request is needed once it has answered, and a file a client never
    # reads leaves no context behind.
    return download(pieces(), "text/csv", filename)


def share_url(token: str) -> str:
    """The address a share link's QR code carries (behind a proxy, ProxyFix makes it the public one)."""
    return url_for("pages.open_share", token=token, _external=True)


def busy(error: Busy) -> Response:
    """503 and when to try again: a PDF asked for while the caller's other PDF is in progress (its own flood), or
    while as many callers wait their turn as the server makes at once, besides those. Turned away rather than
    queued, so that PDFs never hold every server thread."""
    said = (Msg("Your other PDF is still being made; try again when it is ready.") if error.own
            else Msg("The server is making other PDFs just now; try again in a few seconds."))
    body, status = errors.respond(Refused(said, code=ErrorCode.BUSY))
    response = current_app.make_response((body, status))
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response
