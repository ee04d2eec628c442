"""Evaluation: values, cel-go's semantics, the closure compiler and runtime cost."""
