"""dralint: lint Kubernetes Dynamic Resource Allocation manifests and dry-run their claims."""

__version__ = "0.1.0"
