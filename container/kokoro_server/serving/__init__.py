"""Where sessions are served: the HTTP and WebSocket server around an engine.

``server`` starts, drains and stops; ``routes`` are the endpoints; ``session`` is one WebSocket
session (its ``outbox`` typed, its text streams in ``contexts``); ``runtime`` is what the routes share;
``admission`` is an utterance's place, settled once by its owner; ``scheduler`` shares the engine
workers fairly with typed model jobs, beside the ``text_threads``; ``utterance`` is what was asked and how
far it got; ``rendering`` speaks it: the steps of its ``pipeline`` (planned by ``planning``, one ahead)
through the model and its ``timeline`` (pauses and marks placed by ``breaks``), encoded by ``audio``,
paced by ``pace``; ``telemetry`` logs metrics; ``background`` runs a server in a thread for tools and tests.
"""
