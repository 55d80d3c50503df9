"""Helpers for the reliability and security tests (tests/test_isolation.py, test_crash_safety.py, ...)."""
