"""The local-network face: the live table on every phone at the table (see ui.web.server)."""
