"""Time to first audio: streaming sentences as an LLM writes them vs. waiting for the whole reply.

    uv run python bench/streaming_vs_waiting.py [--tokens-per-second 40] [--replies a,b,c] [--out FILE.json]

Starts a local server on the embedded model and, for each corpus reply, runs both ways through
the same client session, one after the other, on the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
from pathlib import Path

from kokoro_server.settings import ServerSettings
from kokoro_stream.background_server import BackgroundServer
from kokoro_stream.corpus import AGENT_REPLIES as CORPUS
from kokoro_stream.demo import compare
from kokoro_stream.say import llm_tokens


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tokens-per-second", type=float, default=40.0)
    parser.add_argument("--replies", default="refund-policy,flight-change,router-troubleshoot,short-yes")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    replies = {row["id"]: row["text"] for row in map(json.loads, CORPUS.read_text().splitlines())}
    results = []
    with BackgroundServer(ServerSettings(host="127.0.0.1", port=0)) as server:
        for reply_id in args.replies.split(","):
            text = replies[reply_id]
            outcome = asyncio.run(compare(server.ws_url, text, args.tokens_per_second))
            results.append(
                {
                    "reply": reply_id,
                    "chars": len(text),
                    "generation_s": round(len(llm_tokens(text)) / args.tokens_per_second, 2),
                    "ttfa_streaming_ms": round(outcome.streaming.first_audio_s * 1000),
                    "ttfa_waiting_ms": round(outcome.waiting.first_audio_s * 1000),
                    "speedup": round(outcome.waiting.first_audio_s / outcome.streaming.first_audio_s, 2),
                    "audio_s": round(outcome.streaming.audio_s, 1),
                }
            )
            print(json.dumps(results[-1]))
    document = {
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "tokens_per_second": args.tokens_per_second,
        "results": results,
    }
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(document, indent=2) + "\n")


if __name__ == "__main__":
    main()
