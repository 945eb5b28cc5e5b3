"""Precision and recall of the prompt-injection detector on its labelled corpus, with every miss
and false alarm listed. Goal: precision >= 0.95 and recall >= 0.90 (gated in
tests/agent/test_injection_detector.py).

Run: .venv/bin/python bench/injection_eval.py
"""

from __future__ import annotations

from manda.evals.injection_corpus import BENIGN, INJECTIONS, score
from manda.injection import looks_like_instruction


def main() -> None:
    result = score(looks_like_instruction)
    print(f"corpus: {len(INJECTIONS)} injections, {len(BENIGN)} benign look-alikes")
    print(f"precision {result.precision:.3f} (goal >= 0.95)   recall {result.recall:.3f} "
          f"(goal >= 0.90)")
    for text in result.missed:
        print(f"  missed:      {text}")
    for text in result.false_alarms:
        print(f"  false alarm: {text}")


if __name__ == "__main__":
    main()
