"""The commands a user runs around the speech server: ``kokoro-stream demo``, ``emulate`` (a local SageMaker
runtime), ``proxy`` (the OpenAI speech API), ``playground`` (a browser page) and ``cache push``."""
