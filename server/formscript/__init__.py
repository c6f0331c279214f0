"""formscript: predict what lionagi will do with a work-form spec or a response script."""

__version__ = "0.1.0"
