"""Forum output: pure renderers, the transactional outbox, the delivery worker, channels."""
