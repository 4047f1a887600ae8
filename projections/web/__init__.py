"""The web replay viewer's page template, style sheet and script, read by projections/html_replay.py."""
