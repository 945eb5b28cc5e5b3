"""The slim seam between the Neo4j store and the database: run one statement, get rows back.

The store only ever calls `QueryExecutor.run`, so unit tests inject a recording fake and assert on
the Cypher it received, with no server. `DriverExecutor` is the real one: each statement runs in
a managed transaction (`driver.execute_query`), which the driver retries on transient errors
(leader switch, deadlock, lost connection) for up to `max_transaction_retry_time`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, LiteralString, Protocol, cast
from urllib.parse import urlsplit, urlunsplit

from neo4j import AsyncDriver, Query, RoutingControl
from neo4j.exceptions import (
    AuthError,
    ClientError,
    ConnectionAcquisitionTimeoutError,
    ServiceUnavailable,
    SessionExpired,
)

from manda.errors import BackendUnavailableError

Row = dict[str, Any]

DATABASE_NOT_FOUND = "Neo.ClientError.Database.DatabaseNotFound"

# Driver errors that mean "the server cannot be used right now", as opposed to a bad statement.
UNREACHABLE_ERRORS: tuple[type[Exception], ...] = (
    ServiceUnavailable,
    SessionExpired,
    ConnectionAcquisitionTimeoutError,
    AuthError,
    OSError,
)


class QueryExecutor(Protocol):
    """Runs one parameterised Cypher statement in its own transaction and returns its rows."""

    async def run(self, query: str, params: Mapping[str, Any], *, write: bool) -> list[Row]: ...


class DriverExecutor:
    """`QueryExecutor` on the official async driver: managed, retried transactions."""

    def __init__(
        self, driver: AsyncDriver, *, uri: str, database: str, timeout: float | None
    ) -> None:
        self._driver = driver
        self._uri = uri
        self._database = database
        self._timeout = timeout

    async def run(self, query: str, params: Mapping[str, Any], *, write: bool) -> list[Row]:
        statement = Query(cast(LiteralString, query), timeout=self._timeout)
        try:
            result = await self._driver.execute_query(
                statement,
                dict(params),
                routing_=RoutingControl.WRITE if write else RoutingControl.READ,
                database_=self._database,
            )
        except UNREACHABLE_ERRORS as exc:
            raise unavailable(self._uri, exc) from exc
        except ClientError as exc:
            if exc.code == DATABASE_NOT_FOUND:
                raise BackendUnavailableError(
                    f"Neo4j at {display_uri(self._uri)} has no database '{self._database}';",
                    hint="check NEO4J_DATABASE (Neo4j Community has only 'neo4j').",
                ) from exc
            raise
        return [record.data() for record in result.records]


def display_uri(uri: str) -> str:
    """The URI without any `user:password@` part, fit for a message a person will read."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return "(an invalid NEO4J_URI)"
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", "")) or uri


def describe(exc: BaseException, uri: str) -> str:
    """The exception on one line, with the URI as `display_uri` shows it (no password)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text.replace(uri, display_uri(uri)) if uri else text


def unavailable(uri: str, exc: BaseException) -> BackendUnavailableError:
    """The error a person sees when Neo4j cannot be used: what failed, and what to do."""
    where = display_uri(uri)
    reason = describe(exc, uri)
    if isinstance(exc, AuthError):
        return BackendUnavailableError(
            f"Neo4j at {where} refused the credentials: {reason};",
            hint="check NEO4J_USER/NEO4J_PASSWORD, or unset NEO4J_URI to use the embedded store.",
        )
    return BackendUnavailableError(
        f"Neo4j at {where} is unreachable: {reason};",
        hint="check NEO4J_URI/NEO4J_PASSWORD, or unset NEO4J_URI to use the embedded store.",
    )
