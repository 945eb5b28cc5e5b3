"""The analyst question bank asked of the targetco sample room: each answer cites passages
holding its figures, or says what was searched and offers a Q&A question (`question_bank.py`)."""

from question_bank import room_tests

asked, test_every_answer_is_sourced_or_offers_qa = room_tests("targetco")
