"""Ports of Kubernetes apimachinery: quantities, field paths and string validators."""
