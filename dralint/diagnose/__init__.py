"""Diagnosis: why pods did not fit, hints, inventory defects, CEL runtime errors."""
