"""The information request list as a deliverable: built from the room's gaps, edited, exported."""
