"""``python -m kokoro_agent``: the same program as the ``kokoro-agent`` command."""

from kokoro_agent.cli import main

if __name__ == "__main__":
    main()
