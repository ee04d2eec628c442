"""The cluster dry-run: the inventory, workloads turned into pods, placement with accumulating
allocations, utilisation, and the explanations behind the simulation findings."""
