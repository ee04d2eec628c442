"""Validation of objects as the Kubernetes API server would validate them (schema, semantics, skew)."""
