"""The OpenAI-compatible speech API (``POST /v1/audio/speech``) for local use: ``routes`` maps its
requests onto the server's speech, ``formats`` encodes its six audio formats."""
