"""The span of the retrieved passages that best answers a question: a sentence or a table row.

Every sentence and every table row of the passages retrieved is scored against the question
frame: the share of the question's words it covers (a row by its own label and the heading it
stands under, so "Diluted" under "Earnings per share:" is diluted EPS), whether it has the period
asked (a row a column of that year, a document of a year that can state it), whether it has the
kind of answer asked (a reason for "why", a figure for "how much", a rate for "how fast"), and
by meaning where the deal's embedder has weighed it (`Evidence.meaning`). The best span leads an
answer that no composed shape gives; its coverage is the confidence the not-found gate reads.

The package reads in that order: `span` (what a span is), `sentences` and `rows` (the spans of a
passage), `pool` (every span of the evidence), `asked`, `balances` and `kind_fit` (what the
question asks of a span), `ranking` (the score), `order` (the ranking's last word).
"""

from manda.agent.spans.balances import (
           PORTION_ROW,
           a_movement,
           a_portion,
           balance_side,
           states_forecast,
           totals_row,
)
from manda.agent.spans.kind_fit import fits_kind, named_after, question_verb
from manda.agent.spans.order import best_spans, statement_rows
from manda.agent.spans.pool import every_span
from manda.agent.spans.ranking import rank_spans
from manda.agent.spans.rows import statement_row
from manda.agent.spans.sentences import captions_table, heading_shaped, lists_things, names_a_table
from manda.agent.spans.span import Span, label_periods

__all__ = ["PORTION_ROW", "Span", "a_movement", "a_portion", "balance_side", "best_spans",
           "captions_table", "every_span", "fits_kind", "heading_shaped",
           "label_periods", "lists_things", "named_after", "names_a_table", "question_verb",
           "rank_spans", "statement_row", "statement_rows", "states_forecast", "totals_row"]
