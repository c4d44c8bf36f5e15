"""How much of each thing the app keeps. The columns of the database are these sizes, and every reader of a
request checks them, so whatever a pulka file holds fits (docs/files.md §1) and nothing longer reaches a query."""

from __future__ import annotations

from dataclasses import dataclass

from ...files import pulyafile

PLAYER_NAME_MAX = pulyafile.MAX_NAME
PULKA_NAME_MAX = pulyafile.MAX_PULKA_NAME
CURRENCY_MAX = pulyafile.MAX_CURRENCY
USERNAME_MAX = 40
# NFKC may write one character as several (ﷺ is 18): a key longer than its column is refused.
USERNAME_KEY_MAX = USERNAME_MAX * 3
SHARE_LABEL_MAX = 40
LEDGER_NOTE_MAX = 200
IDEMPOTENCY_KEY_MAX = 100
# The deals one pulka holds at most (SCOREKEEPER_MAX_DEALS); what one account may keep (SCOREKEEPER_MAX_PULKAS,
# SCOREKEEPER_MAX_ACCOUNT_DEALS): its pulkas, and the deals of all of them, so that one account cannot fill the
# server or the caches that every account shares.
MAX_DEALS = 1000
MAX_PULKAS = 1000
MAX_ACCOUNT_DEALS = 100_000
# The rows of a long list one page shows (the ledger's obligations and payments, the standings, their API
# answers): a club's years of evenings reach a phone a page at a time, never in one answer of megabytes.
PAGE_ROWS = 50


@dataclass(frozen=True)
class Limits:
    """The app's limits as its settings say them, which the use cases keep (services.pulkas.check_room): the
    store only counts."""

    pulka_deals: int = MAX_DEALS
    pulkas: int = MAX_PULKAS
    deals: int = MAX_ACCOUNT_DEALS
    page_rows: int = PAGE_ROWS

# The largest INTEGER column value (PostgreSQL's 32 bits; SQLite's are wider): a number beyond it, in a path,
# a query or a body, is refused where it is read, never sent in a query that PostgreSQL refuses.
INT_MAX = 2**31 - 1
# A pulka's address and a share link's token: what their columns hold. Longer text in a path or a bearer
# header is nobody's, answered without a lookup.
UID_MAX = 32
SHARE_TOKEN_MAX = 64
# The longest address a redirect goes back to (`next=`): a page's path and query, never a page of text.
PATH_MAX = 2000
