"""The planner: what the cluster autoscaler would add and remove for the manifests, offline (``dralint plan``)."""
