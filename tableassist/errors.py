"""Errors a person at the table can act on.

A `UserError` carries one plain sentence. The CLI prints it as one line on stderr and exits non-zero;
the touchscreen shows it; nobody sees a traceback.
"""


class UserError(Exception):
    """Bad input or a missing device: the message says what and, where possible, how to fix it."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code
