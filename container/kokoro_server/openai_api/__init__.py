"""The OpenAI-compatible speech API (``POST /v1/audio/speech``) for local use: ``routes`` maps its requests onto
the server's speech; ``formats`` encodes OpenAI's six response formats as the audio streams in (pcm and wav
itself, mp3, opus, aac and flac by FFmpeg through PyAV: ``compressed``); ``speed`` spreads OpenAI's speed
range over the model's own pace and a pitch-keeping time-stretch (``time_stretch``)."""
