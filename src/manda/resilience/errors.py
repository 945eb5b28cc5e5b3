"""One vocabulary for what went wrong with an external call, so retries and breakers agree.

`classify()` maps the exceptions of every SDK Manda calls (Claude, Voyage, Slack, Neo4j, Redis,
aiohttp, the standard library) to five error classes; only RATE_LIMIT, TIMEOUT and API_ERROR are
worth another attempt. An SDK whose module was never imported cannot have raised the exception
at hand, so SDKs are looked up in `sys.modules` instead of being imported here: classifying
stays cheap, and adapters may import this module without an import cycle. Slack is recognised
by duck typing because the domain never imports `slack_sdk`.
"""

from __future__ import annotations

import email.utils
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from types import ModuleType
from typing import Any

from manda.errors import BackendUnavailableError, MandaError


class ErrorClass(StrEnum):
    RATE_LIMIT = "rate_limit"
    TIMEOUT = "timeout"
    API_ERROR = "api_error"
    VALIDATION_ERROR = "validation_error"
    AUTHENTICATION_ERROR = "authentication_error"


TRANSIENT = frozenset({ErrorClass.RATE_LIMIT, ErrorClass.TIMEOUT, ErrorClass.API_ERROR})

Classifier = Callable[[BaseException], ErrorClass | None]

_SLACK_AUTH_CODES = frozenset(
    {
        "invalid_auth",
        "not_authed",
        "account_inactive",
        "token_revoked",
        "token_expired",
        "no_permission",
        "missing_scope",
        "not_allowed_token_type",
        "ekm_access_denied",
        "org_login_required",
    }
)
_SLACK_TRANSIENT_CODES = frozenset({"internal_error", "fatal_error", "service_unavailable"})
_ANTHROPIC_ERROR_TYPES = {
    "rate_limit_error": ErrorClass.RATE_LIMIT,
    "overloaded_error": ErrorClass.API_ERROR,
    "api_error": ErrorClass.API_ERROR,
    "timeout_error": ErrorClass.TIMEOUT,
    "authentication_error": ErrorClass.AUTHENTICATION_ERROR,
    "permission_error": ErrorClass.AUTHENTICATION_ERROR,
    "invalid_request_error": ErrorClass.VALIDATION_ERROR,
    "not_found_error": ErrorClass.VALIDATION_ERROR,
    "request_too_large": ErrorClass.VALIDATION_ERROR,
    "billing_error": ErrorClass.VALIDATION_ERROR,  # 402: the account, not the moment
}
_REDIS_AUTH_ERRORS = (
    "AuthenticationError",
    "AuthenticationWrongNumberOfArgsError",
    "NoPermissionError",
    "ExternalAuthProviderError",
)
# ConnectionError covers BusyLoadingError (LOADING) and "max number of clients reached".
_REDIS_TRANSIENT_ERRORS = (
    "ConnectionError",
    "ReadOnlyError",
    "TryAgainError",
    "ClusterDownError",
    "MasterDownError",
    "OutOfMemoryError",
)


def classify(exc: BaseException) -> ErrorClass:
    """The class of `exc`; one no rule knows is reported as API_ERROR (see `is_transient`)."""
    return _known_class(exc) or ErrorClass.API_ERROR


def is_transient(exc: BaseException) -> bool:
    """Whether another attempt may succeed: rate limits, timeouts and service-side failures.

    Validation and authentication errors never are, and neither is an exception no rule knows
    (most likely a bug: retrying it would only repeat it) nor a cancellation.
    """
    known = _known_class(exc)
    return known is not None and known in TRANSIENT


def retry_after_seconds(exc: BaseException) -> float | None:
    """How long the service asked us to wait (`retry-after-ms`, then `Retry-After`), if it did.

    Looks at the exception's own headers (Voyage, aiohttp) or its response's (Claude, Slack),
    then at the exception it was raised from; `Retry-After` may be seconds or an HTTP date.
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        headers = _headers_of(current)
        if headers is not None:
            asked = _parse_retry_after(headers)
            if asked is not None:
                return asked
        current = current.__cause__
    return None


def _known_class(exc: BaseException) -> ErrorClass | None:
    if not isinstance(exc, Exception):  # cancellation, interrupts: no verdict on the service
        return None
    for rule in _RULES:
        found = rule(exc)
        if found is not None:
            return found
    return None


def _loaded(name: str) -> ModuleType | None:
    return sys.modules.get(name)


def _from_status(status: int | None) -> ErrorClass | None:
    if not isinstance(status, int):
        return None
    if status == 429:
        return ErrorClass.RATE_LIMIT
    if status == 408:
        return ErrorClass.TIMEOUT
    if status in (401, 403):
        return ErrorClass.AUTHENTICATION_ERROR
    if status >= 500:  # includes Anthropic's 529 overloaded
        return ErrorClass.API_ERROR
    if status >= 400:
        return ErrorClass.VALIDATION_ERROR
    return None


def _manda(exc: BaseException) -> ErrorClass | None:
    if not isinstance(exc, MandaError):
        return None
    # Our own errors often wrap the SDK's: the cause says more than the wrapper.
    cause = exc.__cause__
    if cause is not None and cause is not exc:
        wrapped = _known_class(cause)
        if wrapped is not None:
            return wrapped
    if isinstance(exc, BackendUnavailableError):
        return ErrorClass.API_ERROR
    return ErrorClass.VALIDATION_ERROR


def _anthropic(exc: BaseException) -> ErrorClass | None:
    sdk = _loaded("anthropic")
    if sdk is None or not isinstance(exc, sdk.AnthropicError):
        return None
    if isinstance(exc, sdk.APITimeoutError):
        return ErrorClass.TIMEOUT
    if isinstance(exc, sdk.APIConnectionError):
        return ErrorClass.API_ERROR
    if isinstance(exc, sdk.APIStatusError):
        # An error event inside a stream arrives with the stream's 200: its type says more.
        error_type = _anthropic_error_type(getattr(exc, "body", None))
        by_type = _ANTHROPIC_ERROR_TYPES.get(error_type or "")
        return by_type or _from_status(exc.status_code) or ErrorClass.API_ERROR
    if isinstance(exc, sdk.APIResponseValidationError):
        return ErrorClass.VALIDATION_ERROR
    credentials_error = getattr(sdk, "CredentialsError", None)
    if credentials_error is not None and isinstance(exc, credentials_error):
        return ErrorClass.AUTHENTICATION_ERROR
    return None


def _anthropic_error_type(body: object) -> str | None:
    error = body.get("error") if isinstance(body, Mapping) else None
    kind = error.get("type") if isinstance(error, Mapping) else None
    return kind if isinstance(kind, str) else None


def _voyage(exc: BaseException) -> ErrorClass | None:
    err = _loaded("voyageai.error")
    if err is None or not isinstance(exc, err.VoyageError):
        return None
    by_type: tuple[tuple[type[BaseException], ErrorClass], ...] = (
        (err.AuthenticationError, ErrorClass.AUTHENTICATION_ERROR),
        (err.RateLimitError, ErrorClass.RATE_LIMIT),
        (err.Timeout, ErrorClass.TIMEOUT),
        (err.APIConnectionError, ErrorClass.API_ERROR),
        (err.ServerError, ErrorClass.API_ERROR),
        (err.ServiceUnavailableError, ErrorClass.API_ERROR),
        (err.TryAgain, ErrorClass.API_ERROR),
        (err.InvalidRequestError, ErrorClass.VALIDATION_ERROR),
        (err.MalformedRequestError, ErrorClass.VALIDATION_ERROR),
    )
    for kind, error_class in by_type:
        if isinstance(exc, kind):
            return error_class
    return _from_status(getattr(exc, "http_status", None)) or ErrorClass.API_ERROR


def _slack(exc: BaseException) -> ErrorClass | None:
    names = {cls.__name__ for cls in type(exc).__mro__}
    if "SlackClientError" not in names:
        return None
    if "SlackTokenRotationError" in names:
        return ErrorClass.AUTHENTICATION_ERROR
    if "SlackClientNotConnectedError" in names:
        return ErrorClass.API_ERROR
    if "SlackApiError" not in names:  # request, configuration or Block Kit mistakes of ours
        return ErrorClass.VALIDATION_ERROR
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None)
    data = getattr(response, "data", None)
    code = data.get("error") if isinstance(data, Mapping) else None
    if status == 429 or code == "ratelimited":
        return ErrorClass.RATE_LIMIT
    if code in _SLACK_AUTH_CODES:
        return ErrorClass.AUTHENTICATION_ERROR
    if code == "request_timeout":
        return ErrorClass.TIMEOUT
    if code in _SLACK_TRANSIENT_CODES:
        return ErrorClass.API_ERROR
    # Slack answers most refusals with a 200 and `ok: false`: a refusal, not an outage.
    return _from_status(status) or ErrorClass.VALIDATION_ERROR


def _neo4j(exc: BaseException) -> ErrorClass | None:
    err = _loaded("neo4j.exceptions")
    if err is None:
        return None
    if isinstance(exc, err.AuthError | err.Forbidden):
        return ErrorClass.AUTHENTICATION_ERROR
    if isinstance(exc, err.ServiceUnavailable | err.SessionExpired | err.TransientError):
        return ErrorClass.API_ERROR
    if isinstance(exc, err.ClientError):
        code = getattr(exc, "code", None) or ""
        return ErrorClass.TIMEOUT if "TimedOut" in code else ErrorClass.VALIDATION_ERROR
    if isinstance(exc, err.DatabaseError):
        return ErrorClass.API_ERROR
    if isinstance(exc, err.Neo4jError | err.DriverError):
        retryable = getattr(exc, "is_retryable", None)
        return (
            ErrorClass.API_ERROR
            if callable(retryable) and retryable()
            else ErrorClass.VALIDATION_ERROR
        )
    return None


def _redis(exc: BaseException) -> ErrorClass | None:
    err = _loaded("redis.exceptions")
    if err is None or not isinstance(exc, err.RedisError):
        return None
    if isinstance(exc, _present(err, _REDIS_AUTH_ERRORS)):
        return ErrorClass.AUTHENTICATION_ERROR
    if isinstance(exc, err.TimeoutError):
        return ErrorClass.TIMEOUT
    if isinstance(exc, _present(err, _REDIS_TRANSIENT_ERRORS)):
        return ErrorClass.API_ERROR
    return ErrorClass.VALIDATION_ERROR  # a command Redis refused (wrong type, bad script...)


def _present(module: ModuleType, names: Iterable[str]) -> tuple[type[BaseException], ...]:
    """The exception classes of `module` among `names` (older releases lack some)."""
    return tuple(kind for name in names if isinstance(kind := getattr(module, name, None), type))


def _aiohttp(exc: BaseException) -> ErrorClass | None:
    sdk = _loaded("aiohttp")
    if sdk is None:
        return None
    if isinstance(exc, sdk.ClientResponseError):
        return _from_status(exc.status) or ErrorClass.API_ERROR
    if isinstance(exc, TimeoutError):  # aiohttp's ServerTimeoutError is one
        return ErrorClass.TIMEOUT
    if isinstance(exc, sdk.ClientConnectionError | sdk.ClientPayloadError):
        return ErrorClass.API_ERROR
    return None


def _standard_library(exc: BaseException) -> ErrorClass | None:
    if isinstance(exc, TimeoutError):  # asyncio.TimeoutError is TimeoutError since 3.11
        return ErrorClass.TIMEOUT
    if isinstance(exc, ConnectionError):  # reset, refused, aborted, broken pipe
        return ErrorClass.API_ERROR
    return None


_RULES: tuple[Classifier, ...] = (
    _manda,
    _anthropic,
    _voyage,
    _slack,
    _neo4j,
    _redis,
    _aiohttp,
    _standard_library,
)


def _headers_of(exc: BaseException) -> Any:
    headers = getattr(exc, "headers", None)
    if headers:
        return headers
    response = getattr(exc, "response", None)
    return getattr(response, "headers", None) if response is not None else None


def _header(headers: Any, name: str) -> str | None:
    getter = getattr(headers, "get", None)
    if getter is None:
        return None
    value = getter(name)
    if value is None and isinstance(headers, Mapping):
        # a plain dict is case-sensitive; HTTP header names are not
        value = next((v for k, v in headers.items() if str(k).lower() == name), None)
    return str(value) if value is not None else None


def _parse_retry_after(headers: Any) -> float | None:
    milliseconds = _header(headers, "retry-after-ms")
    if milliseconds is not None:
        try:
            return max(0.0, float(milliseconds) / 1000.0)
        except ValueError:
            pass
    value = _header(headers, "retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
