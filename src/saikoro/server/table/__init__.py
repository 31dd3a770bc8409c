"""The shared table over HTTP + WebSocket: feeds, limits, authentication, log redaction."""
