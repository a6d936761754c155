"""Shared test configuration. Each test package keeps its own fixtures in its own conftest."""
