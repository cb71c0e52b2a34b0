"""Every language streams on the real model: a long Chinese, Japanese or comma-joined reply, which has no
space after its clauses, is spoken in chunks, and its first audio comes while the rest is still being
synthesized.

Each reply is read until its third chunk, then canceled: three chunks are the claim, and the session
goes on afterwards. "While the rest is being synthesized" is read off the server's scheduler when the
first chunk arrives, not timed.
"""

from __future__ import annotations

import base64
import json

import aiohttp
import pytest

from tests.local_server import RunningServer
from tests.speech import connect, plausible_duration, receive, run, speak_and_collect

CHINESE = (
    "您好，感谢您联系我们的客服中心。您的订单已经在今天上午从上海仓库发出，预计三到五个工作日内送达。"
    "如果包裹在运输过程中出现任何损坏，请在签收后四十八小时内联系我们，我们会尽快为您安排退换货。"
    "另外，您本次购物获得了两百积分，可以在下次购物时抵扣现金。还有什么我可以帮您的吗？"
)
# In kana: espeak-ng, which reads the text for the embedded model, says kana but reads kanji only as
# "Chinese letter".
JAPANESE = (
    "おといあわせ、ありがとうございます。ごちゅうもんのしなものは、きょうのごぜんちゅうに、はっそうされました。"
    "おとどけまでは、ふつう、みっかから、いつかほど、かかります。はいそうのじょうきょうは、メールでおおくりした、"
    "ついせきばんごうから、いつでも、ごかくにんいただけます。ほかに、ごふめいなてんがございましたら、おきがるにどうぞ。"
)
COMMA_JOINED = "word," * 120

REPLIES = {
    "chinese": ("zf_xiaobei", CHINESE),
    "japanese": ("jf_alpha", JAPANESE),
    "comma_joined": ("af_heart", COMMA_JOINED),
}
CHUNKS = 3
SECONDS_PER_CHUNK = (0.3, 30.0)  # a chunk is neither an empty click nor the whole reply


def _synthesis_pending(server: RunningServer) -> bool:
    stats = server.stats()
    return stats["running_jobs"] + stats["queued_jobs"] > 0


@pytest.mark.parametrize("reply", list(REPLIES))
def test_a_reply_without_spaces_streams_in_chunks_over_the_session(server: RunningServer, idle_after, reply: str):
    voice, text = REPLIES[reply]

    async def scenario() -> tuple[list[bytes], bool, list[str], bytes]:
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_json({"type": "speak", "id": "reply", "text": text, "voice": voice, "format": "pcm16"})
            frames: list[bytes] = []
            pending_at_first = False
            while len(frames) < CHUNKS:
                event = await receive(ws, timeout=120)
                assert event is not None and event.type in ("start", "audio"), event and event.type
                if event.type == "audio":
                    frames.append(event.audio)
                    pending_at_first = pending_at_first or (len(frames) == 1 and _synthesis_pending(server))
            await ws.send_json({"type": "cancel", "id": "reply"})
            after = []
            while not after or after[-1] != "canceled":
                event = await receive(ws)
                assert event is not None
                after.append(event.type)
            goes_on = await speak_and_collect(ws, "Still here.", "next")
            await ws.close()
            return frames, pending_at_first, after, goes_on

    frames, pending_at_first, after, goes_on = run(scenario())
    assert len(frames) == CHUNKS and "done" not in after  # three chunks, and the reply was not yet over
    low, high = SECONDS_PER_CHUNK
    assert all(low < len(frame) / 48_000 < high for frame in frames), [len(frame) / 48_000 for frame in frames]
    assert pending_at_first, "the first audio came only once the whole reply was synthesized"
    assert plausible_duration("Still here.", len(goes_on) / 48_000)


def test_a_chinese_post_streams_its_chunks_with_their_words(server: RunningServer, idle_after):
    async def scenario() -> list[dict]:
        body = {"text": CHINESE, "voice": "zf_xiaobei", "marks": True}
        lines: list[dict] = []
        async with aiohttp.ClientSession() as session:
            async with session.post(f"{server.url}/invocations", json=body) as response:
                assert response.status == 200
                while len(lines) < CHUNKS:
                    line = await response.content.readline()
                    assert line, "the response ended before its third chunk"
                    lines.append(json.loads(line))
                response.close()  # hang up: the rest of the reply is canceled
        return lines

    lines = run(scenario())
    assert [line["type"] for line in lines] == ["chunk"] * CHUNKS
    said = "".join(word["text"] for line in lines for word in line["words"])
    assert len(said) > 20 and CHINESE.startswith(said)  # the reply's opening, in order, nothing left out
    assert all(len(base64.b64decode(line["audio"])) > 0 for line in lines)
