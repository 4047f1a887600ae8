"""Logs in and out: replay files, the format, audits, tampering, forks and imports."""
