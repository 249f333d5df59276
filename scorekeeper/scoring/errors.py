"""The one error type of the engine: what is wrong, and where (a path such as `deals[3].taker_points`)."""


class InvalidInput(ValueError):
    """Input the rules do not allow. `path` names the offending field, `message` says why."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message

    def under(self, prefix: str) -> "InvalidInput":
        """The same error seen from an enclosing object (`taker` under `deals[2]`)."""
        if not prefix:
            return self
        if not self.path:
            return InvalidInput(prefix, self.message)
        joiner = "" if self.path.startswith("[") else "."
        return InvalidInput(f"{prefix}{joiner}{self.path}", self.message)
