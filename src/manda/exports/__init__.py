"""Deliverables a deal team sends on: spreadsheets written the same way whatever they hold."""
