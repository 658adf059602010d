"""The per-user key that seals the result logs, and the seal itself (HMAC-SHA256).

A plain checksum tells a torn line from a whole one, but anyone can recompute it after editing a
record. A keyed MAC cannot be recomputed without the key, so an edited record fails like a torn
one. The key is 32 random bytes made on first use in the user's config folder
(``platformdirs.user_config_dir("puzzleopt")/results.key``), readable by the user only (0600).
What this does and does not protect: ``docs/reliability.md``, "Result logs".
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
from pathlib import Path

import platformdirs

from exact.errors import PuzzleoptError
from exact.logs import get_logger

log = get_logger(__name__)

KEY_BYTES = 32


def key_path() -> Path:
    """Where this user's key lives.

    Raises:
        PuzzleoptError: no config folder can be found for this user (no HOME, and no entry in
            the password database: a container run under a bare uid).
    """
    try:
        return Path(platformdirs.user_config_dir("puzzleopt")) / "results.key"
    except (RuntimeError, KeyError, OSError) as exc:
        raise PuzzleoptError(
            f"the key that seals result logs needs this user's config folder, which cannot be found ({exc}); "
            "set HOME (or XDG_CONFIG_HOME) to a folder of this user's"
        ) from None


def user_key(path: str | os.PathLike | None = None) -> bytes:
    """This user's key, made on first use (atomically: two processes starting at once agree).

    Args:
        path: The key file (default :func:`key_path`).

    Raises:
        PuzzleoptError: the file exists but is not a key (naming it, and the fix).
    """
    file = Path(path) if path is not None else key_path()
    if not file.exists():
        _create(file)
    _private(file)
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise PuzzleoptError(f"the results key {str(file)!r} cannot be read: {exc.strerror or exc}") from None
    if len(data) != KEY_BYTES:
        raise PuzzleoptError(
            f"the results key {str(file)!r} holds {len(data)} bytes, not {KEY_BYTES}; remove it to make a new one "
            "(result logs sealed with the old key can then not be resumed)"
        )
    return data


def _private(file: Path) -> None:
    """Make the key readable by its user only: a key others can read seals nothing. A key found
    with wider permissions (copied, restored from a backup) is narrowed, with a warning."""
    try:
        mode = stat.S_IMODE(file.stat().st_mode)
    except OSError:
        return  # read_bytes below names the file and the reason
    if mode & 0o077:
        try:
            os.chmod(file, stat.S_IRUSR | stat.S_IWUSR)
        except OSError as exc:
            raise PuzzleoptError(
                f"the results key {str(file)!r} is readable by others (mode {mode:04o}) and cannot be made private "
                f"({exc.strerror or exc}); run chmod 600 on it, or remove it to make a new one"
            ) from None
        log.warning("the results key %s was readable by others (mode %04o); it is now 0600", file, mode)


def _create(file: Path) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.with_name(f".{file.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, stat.S_IRUSR | stat.S_IWUSR)
    try:
        os.write(fd, secrets.token_bytes(KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, file)  # fails where another process made the key first: then theirs is used
    except FileExistsError:
        pass
    finally:
        tmp.unlink(missing_ok=True)


def canonical(doc: dict) -> bytes:
    """``doc`` without its ``mac``, as canonical JSON (sorted keys, no spaces)."""
    body = {k: v for k, v in doc.items() if k != "mac"}
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def mac(doc: dict, key: bytes, bound_to: str = "") -> str:
    """HMAC-SHA256 of ``bound_to`` and :func:`canonical` ``doc``, hex.

    Args:
        doc: The JSON object (its ``mac`` key, if any, left out).
        key: The user's key.
        bound_to: What else the seal covers: a result log's records are sealed with the digest
            of their run's header (:func:`exact.resultlog.run_digest`), so that a record moved
            under another run's header no longer holds. Empty for a header itself.
    """
    # the context first, then a NUL: no canonical JSON starts with one, so (context, doc) pairs
    # cannot collide by shifting bytes from one to the other
    return hmac.new(key, bound_to.encode() + b"\0" + canonical(doc), hashlib.sha256).hexdigest()


def signed(doc: dict, key: bytes, bound_to: str = "") -> dict:
    """``doc`` with its ``mac`` (:func:`mac`) as the last key."""
    body = {k: v for k, v in doc.items() if k != "mac"}
    return {**body, "mac": mac(body, key, bound_to)}


def mac_holds(doc: dict, key: bytes, bound_to: str = "") -> bool:
    """Whether ``doc`` carries a ``mac`` made with ``key`` over its other keys and ``bound_to``."""
    given = doc.get("mac")
    return isinstance(given, str) and hmac.compare_digest(given, mac(doc, key, bound_to))
