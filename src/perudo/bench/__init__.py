"""Benchmarks that print figures (never asserted in tests): ``perudo bench``."""
