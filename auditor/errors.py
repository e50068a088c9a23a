"""The one exception type for user and input mistakes; the CLI turns it into exit status 2."""


class AuditorError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""
