"""The Kokoro-82M speech server, by concern: ``text`` (where text is read), ``engine`` (where audio is made),
``serving`` (where sessions are served: HTTP and WebSocket) and ``openai_api`` (the OpenAI-compatible speech
API). ``settings`` configures them all from KOKORO_* variables; ``commands`` adds ``kokoro-stream serve`` and
``normalize``; ``python -m kokoro_server serve`` is the container's entrypoint."""
