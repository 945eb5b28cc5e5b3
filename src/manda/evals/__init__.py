"""Answer evals: a YAML dataset of questions on the sample deal, scored by named checks."""
