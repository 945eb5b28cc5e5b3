"""The offline evals' cases on Halyard and Sorelle, asked once per run on a worker of their own;
test_evals.py checks the suite's floors on every part together (`eval_parts.py`)."""

from eval_parts import part_tests

test_every_case_is_asked_and_new_rooms_hold_their_floor = part_tests("halyard_sorelle")
