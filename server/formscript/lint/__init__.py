"""Lint: the rule catalogue, checks over located documents, configuration and output."""
