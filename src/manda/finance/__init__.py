"""The deal team's shared vocabulary: amounts, units and scale, periods and fiscal years, metrics.

Ingestion, retrieval and the answering agent all read figures the same way, so this package sits
below all of them and imports none of them.
"""
