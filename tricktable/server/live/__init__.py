"""Live updates: the in-process channel, the change feed between processes, the server-sent events."""
