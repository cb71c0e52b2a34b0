"""Where audio is made: the engines that turn a prepared chunk into audio and word times.

``speech_engine`` is the contract every engine keeps (and how an inference call is interrupted);
``kokoro`` is the Kokoro-82M ONNX engine (with ``integer_conv`` and ``durations``, its graph rewrites);
``device`` decides where it runs and with how many workers; ``embedded_model`` builds the default
model from PyPI for local runs; ``fake_engine`` is a deterministic stand-in for protocol tests.
"""
