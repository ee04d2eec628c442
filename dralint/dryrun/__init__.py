"""The dry-run: pods placed in order with accumulating allocations, and utilisation."""
