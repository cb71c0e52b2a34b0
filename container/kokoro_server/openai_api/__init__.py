"""The OpenAI-compatible speech API (``POST /v1/audio/speech``) for local use: ``routes`` maps its requests onto
the server's speech, ``formats`` encodes its audio formats (mp3, opus, wav, pcm; aac and flac are refused
with a clear error)."""
