"""Protocol-level fakes of outside services (Voyage...), shared by tests, benchmarks and evals."""
