"""Domain-specific semantic types, one module per domain."""
