"""``kokoro-stream capacity``: measure one instance, derive the scaling policy from the measurement, validate it.

measure (traffic.py, sessions.py, ladder.py, measure.py), duty (duty.py, server_log.py), scale-out
(scale_out.py, aws.py), plan (plan.py, prices.py, plan_command.py), validate (traces.py, simulation.py,
validate.py, live_validate.py, validate_command.py); targets opened by local.py, a live endpoint pinned by
pinning.py; files written by report.py and plots.py; the commands registered by commands.py.
"""
