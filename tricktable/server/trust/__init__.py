"""Trust: identities, rate limits, fair deals and the UTC day."""
