"""Precision and recall of the prompt-injection detector on its labelled corpus, dev and held-out
apart, per language, with every miss and false alarm listed. Goal: precision >= 0.95 and recall
>= 0.90 on each (gated in tests/agent/test_injection_detector.py).

Run: .venv/bin/python bench/injection_eval.py
"""

from __future__ import annotations

from manda.evals.injection_corpus import (
    BENIGN,
    HELD_OUT_BENIGN,
    HELD_OUT_INJECTIONS,
    INJECTIONS,
    score,
)
from manda.injection import looks_like_instruction


def main() -> None:
    for name, attacks, benign in (("dev", INJECTIONS, BENIGN),
                                  ("held-out", HELD_OUT_INJECTIONS, HELD_OUT_BENIGN)):
        result = score(looks_like_instruction, attacks, benign)
        print(f"{name}: {len(attacks)} injections, {len(benign)} benign look-alikes — "
              f"precision {result.precision:.3f} (goal >= 0.95), recall {result.recall:.3f} "
              f"(goal >= 0.90)")
        for text in result.missed:
            print(f"  missed:      {text!r}")
        for text in result.false_alarms:
            print(f"  false alarm: {text!r}")


if __name__ == "__main__":
    main()
