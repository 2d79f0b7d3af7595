"""Errors a user can cause. Each carries the field it is about, so interfaces print one clear line."""

from __future__ import annotations


class TohitError(Exception):
    """Base of every error caused by input (exit code 2 in the CLI, never a traceback)."""

    def __init__(self, message: str, *, field: str | None = None, source: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.source = source

    def located(self, *, source: str | None = None, field_prefix: str | None = None) -> TohitError:
        """Return the same error with a file name and/or a field prefix filled in."""
        field = self.field
        if field_prefix:
            field = f"{field_prefix}.{field}" if field else field_prefix
        return type(self)(self.message, field=field, source=source or self.source)

    def __str__(self) -> str:
        parts = [p for p in (self.source, self.field) if p]
        return ": ".join([*parts, self.message])


class InputError(TohitError):
    """A scenario, option or argument that does not fit what the rules and the models accept."""


class DiceError(InputError):
    """A dice expression that cannot be parsed or is over the limits."""


class FacesError(InputError):
    """Forced dice faces out of range or of the wrong count for their role."""
