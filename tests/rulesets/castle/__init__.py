"""Vampire Empire."""
