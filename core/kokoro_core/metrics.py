"""The server's CloudWatch metrics: the contract between what the server emits and what the stacks
alarm, scale and chart on. Both sides import these names, so they cannot drift apart.
"""

from __future__ import annotations

NAMESPACE = "KokoroTTS"
DIMENSION = "Endpoint"

# Per utterance, when it ends.
TIME_TO_FIRST_AUDIO = "TimeToFirstAudio"  # milliseconds from admission to the first audio byte handed out
# Seconds of model work (an utterance's share of each call it was in) and of rendering its audio, per second
# of audio; planning and preparing text runs beside it.
REAL_TIME_FACTOR = "RealTimeFactor"

# Per ready server, every LOAD_SAMPLE_SECONDS (a gauge, so an idle or stuck server still reports).
QUEUE_DEPTH = "QueueDepth"  # synthesis jobs waiting for an engine worker
ACTIVE_UTTERANCES = "ActiveUtterances"  # admitted utterances, queued or playing
SESSIONS = "Sessions"  # open bidirectional sessions
BATCH_SIZE = "BatchSize"  # chunks per model call over the sample (0: no call), across sessions
# 1 while the server's model runs on the GPU (ONNX Runtime's CUDA provider), 0 on the CPU: on a GPU instance
# type, a Minimum below 1 is a server that fell back to the CPU (KOKORO_ALLOW_CPU_FALLBACK).
ON_GPU = "OnGpu"
LOAD_SAMPLE_SECONDS = 10
# Each ready server sends this many load samples a minute, so SampleCount(QueueDepth) over one
# minute divided by it is the number of ready servers: instance health without another metric.
LOAD_SAMPLES_PER_MINUTE = 60 // LOAD_SAMPLE_SECONDS
