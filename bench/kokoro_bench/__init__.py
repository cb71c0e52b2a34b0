"""The benchmarks and studies behind docs/bench: ``kokoro-stream bench`` (time to first audio, playback stalls,
throughput and fairness), and ``python -m kokoro_bench.<study>`` for the pipeline, planning, shutdown, marks,
server overhead, normalizer, CPU runtime and GPU studies; ``corpus`` holds the agent replies they read."""
