"""What an operator sees of a running Manda: structured logs and Prometheus metrics."""

from manda.observability.logging import (
    PRICES,
    JsonFormatter,
    Price,
    configure_logging,
    current_log_context,
    estimate_cost,
    log_answer,
    log_context,
    price_of,
)
from manda.observability.metrics import Metrics, render_metrics

__all__ = [
    "PRICES",
    "JsonFormatter",
    "Metrics",
    "Price",
    "configure_logging",
    "current_log_context",
    "estimate_cost",
    "log_answer",
    "log_context",
    "price_of",
    "render_metrics",
]
