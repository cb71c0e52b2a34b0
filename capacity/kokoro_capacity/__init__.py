"""``kokoro-stream capacity``: measure one instance, derive the scaling policy from the measurement, validate it.

The ``kokoro-stream-capacity`` distribution: the client's transports and boto3 reach an endpoint or a running
server; the ``plot`` extra draws the plots, the ``local`` extra starts a server (and the emulator) here.

measure (traffic.py, sessions.py, ladder.py, measure.py), duty (duty.py, server_log.py), scale-out
(scale_out.py, aws.py), plan (plan.py, prices.py, plan_command.py), validate (traces.py, simulation.py,
validate.py, live_validate.py, validate_command.py); targets opened by local.py, a live endpoint pinned by
pinning.py; files written by report.py and plots.py; the commands registered by commands.py. Shared with the
bench: the agent replies (corpus.py), the listener's timeline (timeline.py) and a local server's POST route
(local_runtime.py).
"""
