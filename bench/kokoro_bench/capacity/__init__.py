"""``kokoro-stream capacity``: measure one instance, derive the scaling policy from the measurement, validate it.

measure (ladder.py, sessions.py, traffic.py), duty (duty.py), scale-out (scale_out.py), plan (plan.py,
prices.py), validate (simulation.py, traces.py); live endpoints through aws.py, local servers through
local.py; files through report.py and plots.py.
"""
