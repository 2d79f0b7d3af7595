"""Opening the store and what it does: encounters created, read, listed, deleted; events appended in one
transaction each, never two at one seq (the unique constraint decides between two writers). On SQLite a store's
threads take turns to write (store/writer.py), and appends that wait together are committed together.

    store = open_store("sqlite:///tohit.db")            # WAL, a busy timeout; migrations applied
    store = open_store("postgresql+psycopg://user@127.0.0.1:5432/tohit")
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, delete, event, func, insert, select
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, NoSuchModuleError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from tohit.store.models import EncounterRow, EventRow, PlayerLinkRow
from tohit.store.writer import Turns, TurnTimeout

#: SQLite waits this long for a lock another writer holds before it reports the database busy.
BUSY_TIMEOUT_MS = 10_000


class StaleSeq(Exception):
    """An append whose `expected_seq` is not the encounter's last seq (another writer came first)."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the encounter is at seq {current}")
        self.current = current


@dataclass(frozen=True)
class PlayerLink:
    """A player's link as stored: the combatant, its token's hash (None: revoked) and its generation."""

    combatant: str
    token_hash: str | None
    generation: int


@dataclass(frozen=True)
class StoredEncounter:
    """One encounter as stored (`players`: its players' links, read by `Store.get`)."""

    id: str
    name: str
    system: str
    engine_version: str
    fight: dict[str, Any]
    gm_hash: str
    view_hash: str
    players: tuple[PlayerLink, ...] = ()


#: A new connection's switch to WAL is tried this many times, BUSY_TIMEOUT_MS apart in all, while another
#: connection holds the write lock of a file still in rollback mode (see `_wal`).
WAL_ATTEMPTS = 200


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # first: switching to WAL waits for a lock too
        _wal(cursor)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def _wal(cursor: sqlite3.Cursor) -> None:
    """`PRAGMA journal_mode=WAL`, waiting for the write lock as any write does. SQLite answers "database is locked"
    at once, without its busy timeout, when another connection holds the write lock of a file still in rollback
    mode: a fresh database is one until its first write (WAL is recorded in the file then), so of two processes
    opening it together, one may be migrating it while the other switches. The switch is tried again, WAL_ATTEMPTS
    times over the busy timeout; past it, the error of a database busy that long."""
    for attempt in range(WAL_ATTEMPTS):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode != sqlite3.SQLITE_BUSY or attempt == WAL_ATTEMPTS - 1:
                raise
            time.sleep(BUSY_TIMEOUT_MS / 1000 / WAL_ATTEMPTS)


def _append_sql(engine: Engine) -> tuple[str, str] | None:
    """The append's two statements (the last seq, the insert) in the driver's own SQL, so that the hot path of a
    write neither builds nor compiles a statement; None for a driver with another parameter style (then the
    append builds them with SQLAlchemy Core)."""
    mark = {"qmark": "?", "format": "%s", "pyformat": "%s"}.get(engine.dialect.paramstyle)
    if mark is None:
        return None
    return (
        f"SELECT max(seq) FROM events WHERE encounter_id = {mark}",
        f"INSERT INTO events (encounter_id, seq, body) VALUES ({mark}, {mark}, {mark})",
    )


#: The key of the PostgreSQL advisory lock the migrations run under (any number of the store's own: "tohit"
#: in ASCII).
MIGRATION_LOCK = 0x746F686974


def upgrade(engine: Engine) -> None:
    """Apply the store's Alembic migrations (`tohit db upgrade`; also at the start of `tohit serve`).

    On PostgreSQL they run under a transaction-level advisory lock: of two servers, or two
    `tohit db upgrade`, started together on a fresh database, one migrates while the other waits, then finds
    the store up to date (without it both created the tables and one died on a unique violation). On SQLite
    the write lock is taken first (`BEGIN IMMEDIATE`, waiting up to the busy timeout) to the same end."""
    config = Config()
    config.set_main_option("script_location", str(resources.files("tohit.store") / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        elif connection.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


#: The databases the store runs on, with an example URL of each (what an error about `--db` suggests).
DATABASES = {"sqlite": "sqlite:///tohit.db", "postgresql": "postgresql+psycopg://user@host/db"}
#: What to install for a driver SQLAlchemy could not import (by its module), when its name on PyPI differs.
DRIVER_PACKAGES = {"psycopg": "psycopg[binary]", "psycopg2": "psycopg2-binary", "pg8000": "pg8000"}


class StoreUnavailable(Exception):
    """A store that cannot be opened: a URL that is not one, a database or driver the store does not run on, a
    driver not installed, a database that cannot be reached. The message is one line and names the URL with its
    password hidden (the CLI puts `--db:` before it)."""


def shown(url: str | URL) -> str:
    """`url` as it may be printed: its password, if any, hidden."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return str(url)
    return parsed.render_as_string(hide_password=True) if parsed.password else str(url)


def store_url(url: str) -> URL:
    """`url` parsed and checked before anything is opened: a database the store runs on (SQLite on a file,
    PostgreSQL), a synchronous driver, installed. StoreUnavailable says what is wrong and what would do."""
    choices = " or ".join(DATABASES.values())
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StoreUnavailable(f"{url!r} is not a database URL: give one like {choices}") from None
    try:
        dialect = parsed.get_dialect()
    except NoSuchModuleError:
        raise StoreUnavailable(
            f"{shown(parsed)}: SQLAlchemy knows no database {parsed.drivername!r}: give one like {choices}"
        ) from None
    if dialect.name not in DATABASES:
        raise StoreUnavailable(
            f"{shown(parsed)}: the store runs on SQLite and PostgreSQL, not {dialect.name}: give one like {choices}"
        )
    if getattr(dialect, "is_async", False):
        raise StoreUnavailable(
            f"{shown(parsed)}: {dialect.driver} is an asyncio driver; the store's is synchronous: give one like"
            f" {DATABASES[dialect.name]}"
        )
    if dialect.name == "sqlite" and parsed.database in (None, "", ":memory:"):
        raise StoreUnavailable(
            f"{shown(parsed)}: a database in memory (one per thread, gone at the end) cannot hold the store:"
            f" give a file, like {DATABASES['sqlite']}"
        )
    if dialect.name == "sqlite" and not parsed.query.get("uri"):
        folder = Path(str(parsed.database)).parent
        if not folder.is_dir():
            raise StoreUnavailable(f"{shown(parsed)}: the folder {str(folder)!r} does not exist")
    try:
        dialect.import_dbapi()
    except ImportError as exc:
        module = getattr(exc, "name", None) or dialect.driver
        package = DRIVER_PACKAGES.get(module.split(".")[0], module)
        raise StoreUnavailable(
            f"{shown(parsed)}: its driver {module!r} is not installed (pip install '{package}'), or give another"
            f" URL, like {choices}"
        ) from None
    return parsed


def open_store(url: str, *, migrate: bool = True) -> Store:
    """The store at `url` (an SQLAlchemy URL), its migrations applied; StoreUnavailable when the URL is not one
    the store can use (`store_url`) or its database cannot be reached or opened."""
    engine = create_engine(store_url(url), future=True)
    if engine.dialect.name == "sqlite":
        _sqlite_pragmas(engine)
    if migrate:
        try:
            upgrade(engine)
        except OperationalError as exc:  # the database could not be reached or opened (not a bug of the store's)
            engine.dispose()
            raise StoreUnavailable(f"cannot open {shown(engine.url)}: {_first_line(exc)}") from exc
    return Store(engine)


def _first_line(exc: DBAPIError) -> str:
    """The driver's own message of a database error, its first line (no SQL, no class name)."""
    lines = str(exc.orig).strip().splitlines() or [type(exc.orig).__name__]
    return lines[0]


class Store:
    """Encounters and their events."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self._append_sql = _append_sql(engine)
        #: On SQLite, the store's threads' turns to write (None on a database with row locks).
        self._turns: Turns[_Append] | None = None
        if engine.dialect.name == "sqlite":
            self._turns = Turns(BUSY_TIMEOUT_MS / 1000)

    def close(self) -> None:
        """Close the store's connections (a server that opened it, at its end; a later use opens new ones)."""
        self.engine.dispose()

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """This store's turn to write, on SQLite, held for one write transaction; past the busy timeout, the
        error of a database busy that long."""
        with ExitStack() as held:
            if self._turns is not None:
                try:
                    held.enter_context(self._turns.turn())
                except TurnTimeout as exc:
                    raise _busy(exc) from None
            yield

    def create(self, row: StoredEncounter, start: dict[str, Any], opening: Sequence[dict[str, Any]] = ()) -> None:
        """A new encounter with its start event (seq 0) and what its start rolled (seq 1, 2, ...: an initiative
        roll), in one transaction."""
        with self._writing(), self.sessions.begin() as session:
            session.add(
                EncounterRow(
                    id=row.id,
                    name=row.name,
                    system=row.system,
                    engine_version=row.engine_version,
                    fight=json.dumps(row.fight),
                    gm_hash=row.gm_hash,
                    view_hash=row.view_hash,
                )
            )
            session.flush()
            session.add(EventRow(encounter_id=row.id, seq=0, body=json.dumps(start)))
            for seq, event in enumerate(opening, start=1):
                session.add(EventRow(encounter_id=row.id, seq=seq, body=json.dumps(event)))

    def get(self, encounter_id: str) -> StoredEncounter | None:
        with self.sessions() as session:
            found = session.get(EncounterRow, encounter_id)
            if found is None:
                return None
            where = PlayerLinkRow.encounter_id == encounter_id
            links = session.scalars(select(PlayerLinkRow).where(where).order_by(PlayerLinkRow.combatant)).all()
            players = tuple(PlayerLink(r.combatant, r.token_hash, r.generation) for r in links)
            return replace(_stored(found), players=players)

    def all(self, offset: int = 0, limit: int | None = None) -> list[tuple[StoredEncounter, int]]:
        """Every encounter with its last seq, the newest first (then by id); a page of them with `offset` and
        `limit`."""
        with self.sessions() as session:
            last = (
                select(EventRow.encounter_id, func.max(EventRow.seq).label("seq"))
                .group_by(EventRow.encounter_id)
                .subquery()
            )
            query = (
                select(EncounterRow, last.c.seq)
                .join(last, last.c.encounter_id == EncounterRow.id)
                .order_by(EncounterRow.created.desc(), EncounterRow.id)
                .offset(offset)
                .limit(limit)
            )
            rows = session.execute(query).all()
            return [(_stored(r[0]), int(r[1])) for r in rows]

    def count(self) -> int:
        """How many encounters the store holds."""
        with self.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(EncounterRow)) or 0)

    def events(self, encounter_id: str, after: int = -1) -> list[dict[str, Any]]:
        """The events after seq `after`, in order."""
        with self.sessions() as session:
            rows = session.scalars(
                select(EventRow)
                .where(EventRow.encounter_id == encounter_id, EventRow.seq > after)
                .order_by(EventRow.seq)
            ).all()
            return [json.loads(r.body) for r in rows]

    def last_seq(self, encounter_id: str) -> int:
        with self.sessions() as session:
            found = session.scalar(select(func.max(EventRow.seq)).where(EventRow.encounter_id == encounter_id))
            return -1 if found is None else int(found)

    def append(self, encounter_id: str, expected: int, events: Sequence[dict[str, Any]]) -> None:
        """Append events numbered expected + 1, expected + 2, ... in one transaction; StaleSeq when the
        encounter is no longer at `expected` (the unique (encounter, seq) makes two writers never both win).
        On SQLite, appends waiting for the turn to write are committed together, each checked on its own;
        this returns once the transaction that holds the events has committed."""
        rows = [(encounter_id, i, json.dumps(body)) for i, body in enumerate(events, start=expected + 1)]
        pending = _Append(encounter_id, expected, rows)
        try:
            if self._turns is None:
                self._commit([pending])
            else:
                self._turns.together(pending, self._commit_group, lambda p: p.committed)
        except IntegrityError:
            raise StaleSeq(self.last_seq(encounter_id)) from None
        except TurnTimeout as exc:
            raise _busy(exc) from None
        if pending.error is not None:
            raise pending.error
        if pending.stale is not None:
            raise StaleSeq(pending.stale)

    def _commit_group(self, group: list[_Append]) -> None:
        """The appends of `group` in one transaction. When one append fails it, each is tried in a transaction
        of its own (that append's error is its own; the others land as they would alone). A failure of the
        database itself (busy past the timeout, a disk error) fails the whole group at once: nothing of it
        written, each caller told, and no retry that would hold the turn for another timeout each.

        Once one append of the fallback has committed, nothing is raised: whatever fails an append after it
        (its own transaction, or reading the seq that refused it) is that append's error alone, so an append
        that landed is never answered with an error (its client would send it again)."""
        try:
            self._commit(group)
        except OperationalError:
            raise
        except Exception:
            if len(group) == 1:
                raise
            for pending in group:
                self._commit_alone(pending)

    def _commit_alone(self, pending: _Append) -> None:
        """`pending` in a transaction of its own; how it ended set on it (`stale` or `error`), never raised."""
        pending.stale = None
        try:
            try:
                self._commit([pending])
            except IntegrityError:
                pending.stale = self.last_seq(pending.encounter_id)
        except Exception as exc:
            pending.stale, pending.error = None, exc

    def _commit(self, group: list[_Append]) -> None:
        """One transaction: each append of `group` checked against its encounter's last seq, inside it, then
        its rows inserted (the rows in one executemany); `stale` set on those refused."""
        with self.engine.begin() as connection:
            if connection.dialect.name == "sqlite":  # the write lock first: the check is inside the transaction
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            for pending in group:
                self._append_in(connection, pending)
        for pending in group:  # the transaction has committed
            pending.committed = pending.stale is None

    def _append_in(self, connection: Connection, pending: _Append) -> None:
        """One append inside the transaction of `connection`: its rows inserted when its encounter's last seq
        is the one it expects, else `stale` set to that seq (-1: no such encounter) and nothing written."""
        sql = self._append_sql
        if sql is None:  # a driver of another parameter style
            where = EventRow.encounter_id == pending.encounter_id
            current = connection.scalar(select(func.max(EventRow.seq)).where(where))
        else:
            current = connection.exec_driver_sql(sql[0], (pending.encounter_id,)).scalar()
        if current is None or int(current) != pending.expected:
            pending.stale = -1 if current is None else int(current)
            return
        if sql is None:
            keys = ("encounter_id", "seq", "body")
            connection.execute(insert(EventRow), [dict(zip(keys, r, strict=True)) for r in pending.rows])
        elif pending.rows:
            connection.exec_driver_sql(sql[1], pending.rows)

    def set_view_hash(self, encounter_id: str, view_hash: str) -> None:
        """Replace the encounter's view token (kept hashed)."""
        with self._writing(), self.sessions.begin() as session:
            found = session.get(EncounterRow, encounter_id)
            if found is not None:
                found.view_hash = view_hash

    def set_player_link(self, encounter_id: str, link: PlayerLink) -> None:
        """Make, replace or revoke (a `token_hash` of None) a player's link of the encounter."""
        with self._writing(), self.sessions.begin() as session:
            found = session.get(PlayerLinkRow, (encounter_id, link.combatant))
            if found is None:
                found = PlayerLinkRow(encounter_id=encounter_id, combatant=link.combatant)
                session.add(found)
            found.token_hash, found.generation = link.token_hash, link.generation

    def rename(self, encounter_id: str, name: str) -> None:
        """Give the encounter a new name."""
        with self._writing(), self.sessions.begin() as session:
            found = session.get(EncounterRow, encounter_id)
            if found is not None:
                found.name = name

    def delete(self, encounter_id: str) -> bool:
        with self._writing(), self.sessions.begin() as session:
            session.execute(delete(EventRow).where(EventRow.encounter_id == encounter_id))
            session.execute(delete(PlayerLinkRow).where(PlayerLinkRow.encounter_id == encounter_id))
            gone = session.execute(delete(EncounterRow).where(EncounterRow.id == encounter_id))
            return bool(gone.rowcount)  # type: ignore[attr-defined]


@dataclass(eq=False)
class _Append:
    """One append waiting for its transaction, and how it ended: `stale` the encounter's last seq when it was
    refused (-1: no such encounter), `error` what failed it alone when its group failed."""

    encounter_id: str
    expected: int
    rows: list[tuple[str, int, str]]
    stale: int | None = None
    error: Exception | None = None
    committed: bool = False  # its rows are in a transaction that committed


def _busy(exc: TurnTimeout) -> OperationalError:
    """A turn to write that did not come, told as SQLite tells a lock it waited for too long."""
    return OperationalError("BEGIN IMMEDIATE", None, sqlite3.OperationalError(f"database is locked ({exc})"))


def _stored(row: EncounterRow) -> StoredEncounter:
    return StoredEncounter(
        row.id, row.name, row.system, row.engine_version, json.loads(row.fight), row.gm_hash, row.view_hash
    )


__all__ = [
    "Session",
    "StaleSeq",
    "Store",
    "StoreUnavailable",
    "StoredEncounter",
    "open_store",
    "shown",
    "store_url",
    "upgrade",
]
