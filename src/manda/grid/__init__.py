"""The review grid: one set of questions across every document of a kind, cited cell by cell."""
