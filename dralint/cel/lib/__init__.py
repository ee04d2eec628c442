"""The CEL libraries: the standard ones, cel-go's extensions, Kubernetes' libraries, base environments by release."""
