"""CEL policies: rules written as data, evaluated over each matched object (``object`` = the manifest)."""
