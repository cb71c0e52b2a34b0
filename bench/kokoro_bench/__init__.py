"""`kokoro-stream bench`: time to first audio, playback stalls, throughput and fairness."""
