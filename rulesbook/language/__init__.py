"""The rules language (see expressions)."""
