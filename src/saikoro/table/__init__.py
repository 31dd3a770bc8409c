"""The play layer: rooms as event logs, the chat-line dispatcher, combat trackers.

- :mod:`saikoro.table.events` — the events (who, when, which rule, which dice).
- :mod:`saikoro.table.state` — ``RoomState`` and the pure fold ``apply`` / ``replay``.
- :mod:`saikoro.table.dispatch` — chat line → events (no I/O).
- :mod:`saikoro.table.tracker` — combat (each system's own tracker is in its folder).
- :mod:`saikoro.table.session` — a room opened on a store (:mod:`saikoro.store`).
"""
