"""The pure engines: scoring (deals and matches), tournament (a concours's standings and draws) and
season (a club's season ranking). Plain dataclasses and functions: no Django import (the import
contracts in pyproject.toml keep it so)."""
