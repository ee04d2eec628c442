"""The cluster model: the inventory (devices, classes, nodes, taint rules, allocations) and the pods of workloads."""
