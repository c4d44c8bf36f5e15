"""The unit of work (cosmicpython's): one write, in one transaction, made once under its idempotency key.

The edge opens one per write: it looks the request's key up once (`answered`: a retry gets the stored answer
and nothing is written), lets a use case write through the unit's repositories, builds the answer from what
the use case returned, stores it with the key (`remember`) and commits. A refusal, or a key that the same
request sent again stored meanwhile (KeyTaken), rolls everything back, the key included. What this process
keeps of a write (a pulka by its new version) it keeps once the write has committed."""

from __future__ import annotations

from typing import Protocol

from ..domain.idempotency import Answer, Key
from .accounts import AccountRepository
from .ledger import LedgerRepository
from .players import PlayerRepository
from .pulkas import PulkaRepository
from .shares import ShareRepository


class UnitOfWork(Protocol):
    """The repositories a write may change, each writing in the unit's transaction."""

    @property
    def pulkas(self) -> PulkaRepository: ...

    @property
    def ledger(self) -> LedgerRepository: ...

    @property
    def players(self) -> PlayerRepository: ...

    @property
    def shares(self) -> ShareRepository: ...

    @property
    def accounts(self) -> AccountRepository: ...

    def answered(self, key: Key) -> Answer | None:
        """What the write of this key answered, if it was made; KeyReused if the key came with another request."""

    def remember(self, key: Key, answer: Answer) -> None:
        """The key with the answer of this unit's write, stored in its transaction; KeyTaken if it was stored
        meanwhile."""

    def commit(self) -> None: ...

    def rollback(self) -> None: ...
