"""A tiny third game system, kept in a test folder, that proves a system is one folder."""
