"""Validation of objects as the API server sees them: schemas, semantic rules, version skew."""
