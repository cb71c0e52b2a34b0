"""Where sessions are served: the HTTP and WebSocket server around an engine.

``server`` starts, drains and stops; ``routes`` are the endpoints; ``session`` is one WebSocket
session; ``runtime`` is what the routes share; ``scheduler`` shares the engine workers fairly;
``utterance`` renders one text to audio (planned by ``planning``, encoded by ``audio``, paced by
``pace``); ``telemetry`` logs metrics; ``background`` runs a server in a thread for tools and tests.
"""
