"""From device plugins to DRA: which driver stands behind a device-plugin resource, its DeviceClasses, rewrites."""
