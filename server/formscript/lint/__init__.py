"""Lint: checks over located documents, fixes, configuration, suppressions and output formats."""
