"""kombu's transports as the site uses them, each with the smallest change that keeps a worker
alive (issue 26): the filesystem transport (the embedded default broker) and Redis's.

The filesystem transport (``var/celery/``), made safe for a worker that reads the queue folder
while the site and the scheduler write to it.

kombu's own transport (kombu 5.7) has two faults that each stopped the worker, and with it
``bin/run``:

- its writer opens the message's final name, then writes: a reader that lists the folder in
  between takes an empty or half-written file, and ``json.loads`` raises in the worker's consumer
  loop, which Celery treats as unrecoverable;
- its reader decodes whatever it took and raises on anything malformed, so one bad file kills
  every worker that picks it up.

Here a message is written under a hidden temporary name in the same folder and renamed to its
final name once complete (a rename within a folder is atomic: a reader sees the whole message or
nothing), and a reader sets a file it cannot read as a message aside in the ``malformed`` folder,
logs it, and takes the next one. Only those two methods change; the names, their order and every
other behaviour are kombu's. The transport also has no host, so it names none: kombu's virtual
transport defaults to "localhost" and warned "No hostname was supplied" at every start.

Redis: when the broker goes away, Celery's consumer first "collects" the connection, which closes
the channel (that fails part-way, Redis being down) and drops the transport's client; then it
closes the connection again, and the channel's second close tries to put the messages the worker
holds unacknowledged (tasks with a countdown, as the bots' are) back on the queue with a new
Redis client, built from the client that is gone: ``AttributeError: 'NoneType' object has no
attribute 'hostname'``, which Celery does not count as a connection error, so the worker exits
("Unrecoverable error"). No kombu or Celery release fixes it (kombu 5.7.0, Celery 5.7.0). Here a
channel whose transport has lost its client leaves those messages where Redis keeps them, in its
"unacked" set, which puts them back on the queue after the visibility timeout, as when a worker
is killed (every task is idempotent); the consumer then reconnects as it does for any outage.

``register()`` (called by config/celery.py before the Celery app exists) puts them in kombu's
table of transports under kombu's own names, ``filesystem``, ``redis`` and ``rediss``: the broker
URLs, and what the logs say of them, stay kombu's.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import uuid
from pathlib import Path
from queue import Empty
from time import monotonic

import kombu.transport
from kombu.exceptions import ChannelError
from kombu.transport import filesystem, redis
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

# A message file's name ends in ".<queue>.msg"; names that start with a dot are never messages
# (kombu's reader, _size and _purge match "<anything>.<queue>.msg" on the part after the first dot,
# which for ".<x>" is all of "<x>"): the temporary names of messages being written and of
# messages a reader has claimed.
_WRITING_SUFFIX = ".writing"
_CLAIMED_SUFFIX = ".claimed"


def _is_message(payload: object) -> bool:
    """What kombu's virtual Message needs before Celery sees the body (which Celery checks)."""
    return (
        isinstance(payload, dict)
        and isinstance(payload.get("properties"), dict)
        and "delivery_tag" in payload["properties"]
    )


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put ``payload`` on ``queue``: written under a hidden name, then renamed to kombu's
        name (its first part, the time in ms, keeps the queue in order)."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".{name}{_WRITING_SUFFIX}")
        try:
            with open(partial, "xb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.remove(partial)
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def _get(self, queue):
        """The oldest readable message of ``queue``; a file that is not one is set aside."""
        wanted = f"{queue}.msg"
        folder = self.data_folder_in
        for filename in sorted(os.listdir(folder)):
            if filename.partition(".")[2] != wanted:
                continue
            claimed = os.path.join(folder, f".{filename}.{uuid.uuid4().hex}{_CLAIMED_SUFFIX}")
            try:
                # Atomic, in one folder: of two readers, one gets the file, the other goes on.
                os.rename(os.path.join(folder, filename), claimed)
            except OSError:
                continue
            try:
                with open(claimed, "rb") as f:
                    raw = f.read()
            except OSError as exc:
                raise ChannelError(f"Cannot read file {filename!r} from queue.") from exc
            try:
                payload = loads(bytes_to_str(raw))
            except ValueError:  # (json's JSONDecodeError and UnicodeDecodeError are ValueErrors)
                payload = None
            if not _is_message(payload):
                self._set_aside(claimed, filename, len(raw))
                continue
            if self.store_processed:
                shutil.move(claimed, os.path.join(self.processed_folder, filename))
            else:
                os.remove(claimed)
            return payload
        raise Empty()

    def _set_aside(self, claimed: str, filename: str, size: int) -> None:
        aside = self.malformed_folder
        aside.mkdir(parents=True, exist_ok=True)
        target = aside / filename
        try:
            shutil.move(claimed, target)
        except OSError:
            logger.exception("Broker: could not move the malformed message %s aside; removing it", filename)
            with contextlib.suppress(OSError):
                os.remove(claimed)
            return
        logger.error("Broker: %s is not a message (%d bytes); moved to %s, going on", filename, size, target)

    @property
    def malformed_folder(self) -> Path:
        default = Path(self.processed_folder if self.store_processed else tempfile.gettempdir()) / "malformed"
        return Path(self.transport_options.get("malformed_folder", default))


class Transport(filesystem.Transport):
    Channel = Channel

    @property
    def default_connection_params(self):
        # Folders, no host (kombu's virtual transport says "localhost" and then warns that none
        # was supplied).
        return {"port": self.default_port}


class _RedisQoS(redis.QoS):
    def restore_unacked(self, client=None):
        if client is None and self.channel.connection.client is None:
            # The connection was collected after it was lost (see the module's docstring): the
            # messages stay in Redis's unacked set, to be restored after the visibility timeout.
            logger.warning(
                "Broker connection lost: %d unacknowledged message(s) go back to the queue after "
                "the visibility timeout",
                len(self._delivered),
            )
            self._delivered.clear()
            return None
        return super().restore_unacked(client)


class _RedisChannel(redis.Channel):
    QoS = _RedisQoS


class RedisTransport(redis.Transport):
    Channel = _RedisChannel


_OURS = {
    "filesystem": f"{__name__}:Transport",
    "redis": f"{__name__}:RedisTransport",
    # (kombu turns TLS on from the scheme's name, which stays "rediss".)
    "rediss": f"{__name__}:RedisTransport",
}


def register() -> None:
    """kombu's names for these transports resolve to the ones above from now on."""
    kombu.transport.TRANSPORT_ALIASES.update(_OURS)
    for name in _OURS:
        # (kombu keeps each name's class once resolved.)
        kombu.transport._transport_cache.pop(name, None)
