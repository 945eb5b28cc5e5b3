"""Error classes of exceptions built as the SDKs build them: Slack, Neo4j, Redis, ours, builtins."""

from __future__ import annotations

import asyncio
import email.utils
import time

import aiohttp
import neo4j.exceptions as neo4j_errors
import pytest
import redis.exceptions as redis_errors
from slack_sdk.errors import SlackApiError, SlackRequestError
from slack_sdk.web.slack_response import SlackResponse

from manda.errors import BackendUnavailableError, UnknownDealError, UnreadableFileError
from manda.resilience import (
    CircuitOpenError,
    ErrorClass,
    classify,
    is_transient,
    retry_after_seconds,
)


def slack_error(status: int, error: str, headers: dict[str, str] | None = None) -> SlackApiError:
    response = SlackResponse(
        client=None,
        http_verb="POST",
        api_url="https://slack.com/api/chat.postMessage",
        req_args={},
        data={"ok": False, "error": error},
        headers=headers or {},
        status_code=status,
    )
    return SlackApiError(f"The request to the Slack API failed: {error}", response)


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (slack_error(429, "ratelimited", {"Retry-After": "30"}), ErrorClass.RATE_LIMIT),
        (slack_error(200, "ratelimited"), ErrorClass.RATE_LIMIT),
        (slack_error(200, "invalid_auth"), ErrorClass.AUTHENTICATION_ERROR),
        (slack_error(200, "not_authed"), ErrorClass.AUTHENTICATION_ERROR),
        (slack_error(200, "token_revoked"), ErrorClass.AUTHENTICATION_ERROR),
        (slack_error(500, "internal_error"), ErrorClass.API_ERROR),
        (slack_error(503, "service_unavailable"), ErrorClass.API_ERROR),
        (slack_error(502, ""), ErrorClass.API_ERROR),
        (slack_error(200, "request_timeout"), ErrorClass.TIMEOUT),
        (slack_error(200, "channel_not_found"), ErrorClass.VALIDATION_ERROR),
        (slack_error(200, "invalid_blocks"), ErrorClass.VALIDATION_ERROR),
        (SlackRequestError("file and content cannot both be given"), ErrorClass.VALIDATION_ERROR),
    ],
)
def test_slack_errors_are_classified_without_importing_slack(
    exc: Exception, expected: ErrorClass
) -> None:
    assert classify(exc) is expected


def test_slack_retry_after_is_read_from_the_response() -> None:
    assert retry_after_seconds(slack_error(429, "ratelimited", {"Retry-After": "30"})) == 30.0
    assert retry_after_seconds(slack_error(429, "ratelimited", {"retry-after": "2"})) == 2.0
    assert retry_after_seconds(slack_error(200, "channel_not_found")) is None


def neo4j_server_error(code: str) -> neo4j_errors.Neo4jError:
    """The exception the driver builds from a server's FAILURE message with `code`."""
    hydrate = getattr(neo4j_errors.Neo4jError, "_hydrate_neo4j", None)
    if hydrate is None:
        pytest.skip("this neo4j driver builds server errors differently")
    return hydrate(code=code, message="scripted")


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (neo4j_errors.ServiceUnavailable("Couldn't connect"), ErrorClass.API_ERROR),
        (neo4j_errors.SessionExpired("Session expired"), ErrorClass.API_ERROR),
        (neo4j_errors.TransientError("Deadlock"), ErrorClass.API_ERROR),
        (neo4j_errors.AuthError("Unauthorized"), ErrorClass.AUTHENTICATION_ERROR),
        (neo4j_errors.CypherSyntaxError("Invalid input"), ErrorClass.VALIDATION_ERROR),
        (neo4j_errors.ConstraintError("Already exists"), ErrorClass.VALIDATION_ERROR),
        (neo4j_errors.ClientError("Bad request"), ErrorClass.VALIDATION_ERROR),
    ],
)
def test_neo4j_errors_are_classified(exc: Exception, expected: ErrorClass) -> None:
    assert classify(exc) is expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("Neo.TransientError.Transaction.DeadlockDetected", ErrorClass.API_ERROR),
        ("Neo.TransientError.General.DatabaseUnavailable", ErrorClass.API_ERROR),
        ("Neo.ClientError.Security.Unauthorized", ErrorClass.AUTHENTICATION_ERROR),
        ("Neo.ClientError.Security.Forbidden", ErrorClass.AUTHENTICATION_ERROR),
        ("Neo.ClientError.Statement.SyntaxError", ErrorClass.VALIDATION_ERROR),
        ("Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration", ErrorClass.TIMEOUT),
    ],
)
def test_neo4j_server_failures_are_classified_by_code(code: str, expected: ErrorClass) -> None:
    assert classify(neo4j_server_error(code)) is expected


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (redis_errors.ConnectionError("Connection refused"), ErrorClass.API_ERROR),
        (redis_errors.BusyLoadingError("Redis is loading"), ErrorClass.API_ERROR),
        (redis_errors.ReadOnlyError("You can't write against a replica"), ErrorClass.API_ERROR),
        (redis_errors.TimeoutError("Timeout reading from socket"), ErrorClass.TIMEOUT),
        (redis_errors.AuthenticationError("invalid password"), ErrorClass.AUTHENTICATION_ERROR),
        (redis_errors.ResponseError("WRONGTYPE"), ErrorClass.VALIDATION_ERROR),
        (redis_errors.DataError("Invalid input"), ErrorClass.VALIDATION_ERROR),
    ],
)
def test_redis_errors_are_classified(exc: Exception, expected: ErrorClass) -> None:
    assert classify(exc) is expected


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (TimeoutError("read timed out"), ErrorClass.TIMEOUT),
        (ConnectionResetError(104, "Connection reset by peer"), ErrorClass.API_ERROR),
        (ConnectionRefusedError(111, "Connection refused"), ErrorClass.API_ERROR),
        (aiohttp.ServerTimeoutError("Timeout on reading data from socket"), ErrorClass.TIMEOUT),
        (aiohttp.ServerDisconnectedError(), ErrorClass.API_ERROR),
    ],
)
def test_timeouts_and_lost_connections_are_transient(exc: Exception, expected: ErrorClass) -> None:
    assert classify(exc) is expected
    assert is_transient(exc)


def http_error(status: int, headers: dict[str, str] | None = None) -> aiohttp.ClientResponseError:
    return aiohttp.ClientResponseError(
        request_info=None,  # type: ignore[arg-type]
        history=(),
        status=status,
        message="scripted",
        headers=headers,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (429, ErrorClass.RATE_LIMIT),
        (408, ErrorClass.TIMEOUT),
        (500, ErrorClass.API_ERROR),
        (529, ErrorClass.API_ERROR),
        (401, ErrorClass.AUTHENTICATION_ERROR),
        (403, ErrorClass.AUTHENTICATION_ERROR),
        (400, ErrorClass.VALIDATION_ERROR),
        (404, ErrorClass.VALIDATION_ERROR),
    ],
)
def test_http_statuses_map_to_classes(status: int, expected: ErrorClass) -> None:
    assert classify(http_error(status)) is expected


def test_retry_after_as_an_http_date_is_seconds_from_now() -> None:
    in_30_s = email.utils.formatdate(time.time() + 30, usegmt=True)
    asked = retry_after_seconds(http_error(503, {"Retry-After": in_30_s}))
    assert asked is not None and 25.0 <= asked <= 30.0


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "12"}, 12.0),
        ({"Retry-After": "0.25"}, 0.25),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),  # the precise one first
        ({"Retry-After": "-3"}, 0.0),
        ({"Retry-After": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after_values(headers: dict[str, str], expected: float | None) -> None:
    assert retry_after_seconds(http_error(429, headers)) == expected


def test_our_errors_take_the_class_of_what_they_wrap() -> None:
    try:
        try:
            raise http_error(429, {"Retry-After": "5"})
        except aiohttp.ClientResponseError as exc:
            raise BackendUnavailableError("Voyage AI did not answer.") from exc
    except BackendUnavailableError as wrapped:
        assert classify(wrapped) is ErrorClass.RATE_LIMIT
        assert retry_after_seconds(wrapped) == 5.0


def test_our_own_errors_without_a_cause() -> None:
    assert classify(BackendUnavailableError("Neo4j is not reachable.")) is ErrorClass.API_ERROR
    assert is_transient(BackendUnavailableError("Neo4j is not reachable."))
    assert classify(UnknownDealError("falcon")) is ErrorClass.VALIDATION_ERROR
    assert classify(UnreadableFileError("a.pdf", "encrypted")) is ErrorClass.VALIDATION_ERROR
    assert not is_transient(UnknownDealError("falcon"))


def test_a_refusal_of_an_open_breaker_is_an_api_error() -> None:
    exc = CircuitOpenError("Claude", 42.0, failures=5)
    assert classify(exc) is ErrorClass.API_ERROR
    assert isinstance(exc, BackendUnavailableError)


@pytest.mark.parametrize("exc", [KeyError("content"), ValueError("bad"), AttributeError("x")])
def test_unknown_errors_are_reported_but_never_retried(exc: Exception) -> None:
    assert classify(exc) is ErrorClass.API_ERROR
    assert not is_transient(exc)


async def test_an_asyncio_timeout_is_a_timeout() -> None:
    with pytest.raises(TimeoutError) as raised:
        async with asyncio.timeout(0.001):
            await asyncio.Event().wait()
    assert classify(raised.value) is ErrorClass.TIMEOUT


def test_cancellation_is_never_transient() -> None:
    assert not is_transient(asyncio.CancelledError())
    assert not is_transient(KeyboardInterrupt())
