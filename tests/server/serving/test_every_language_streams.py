"""Every language streams on the real model: a long reply in each Kokoro language (and a comma-joined one,
with no space after its clauses) is spoken in chunks, each with the marks of its words, and its first
audio comes while the rest is still being synthesized.

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
# Kanji and kana, read by misaki's Japanese reader (kokoro_server/text/g2p.py).
JAPANESE = (
    "お問い合わせありがとうございます。ご注文の品物は、今日の午前中に発送されました。"
    "お届けまでは、通常三日から五日ほどかかります。配送状況は、メールでお送りした追跡番号から、いつでもご確認いただけます。"
    "ほかにご不明な点がございましたら、お気軽にどうぞ。"
)
SPANISH = (
    "Gracias por llamar a nuestro servicio de atención al cliente. Su pedido salió esta mañana de nuestro almacén. "
    "Llegará dentro de tres a cinco días laborables. Si el paquete llega dañado, avísenos en cuarenta y ocho horas."
) * 3
FRENCH = (
    "Merci d'avoir contacté notre service client. Votre commande est partie ce matin de notre entrepôt. "
    "Elle arrivera dans trois à cinq jours ouvrés. Si le colis est abîmé, prévenez-nous sous quarante-huit heures."
) * 3
ITALIAN = (
    "Grazie per aver contattato il nostro servizio clienti. Il suo ordine è partito stamattina dal magazzino. "
    "Arriverà entro tre o cinque giorni lavorativi. Se il pacco arriva danneggiato, ci avvisi entro due giorni."
) * 3
PORTUGUESE = (
    "Obrigado por entrar em contato com o nosso atendimento. Seu pedido saiu hoje de manhã do nosso armazém. "
    "Ele chegará em três a cinco dias úteis. Se o pacote chegar danificado, avise-nos em até dois dias."
) * 3
HINDI = (
    "हमारी ग्राहक सेवा से संपर्क करने के लिए धन्यवाद। आपका ऑर्डर आज सुबह हमारे गोदाम से भेज दिया गया है। "
    "यह तीन से पाँच कार्य दिवसों में पहुँच जाएगा। अगर पैकेट खराब मिले, तो कृपया दो दिन के भीतर हमें बताएँ।"
) * 3
COMMA_JOINED = "word," * 120

REPLIES = {
    "chinese": ("zf_xiaobei", CHINESE),
    "japanese": ("jf_alpha", JAPANESE),
    "spanish": ("ef_dora", SPANISH),
    "french": ("ff_siwis", FRENCH),
    "italian": ("if_sara", ITALIAN),
    "portuguese": ("pf_dora", PORTUGUESE),
    "hindi": ("hf_alpha", HINDI),
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

    marked: list[list[str]] = []

    async def scenario() -> tuple[list[bytes], bool, list[str], bytes]:
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            speak = {"type": "speak", "id": "reply", "text": text, "voice": voice, "format": "pcm16", "marks": True}
            await ws.send_json(speak)
            frames: list[bytes] = []
            pending_at_first = False
            while len(frames) < CHUNKS:
                event = await receive(ws, timeout=120)
                assert event is not None and event.type in ("start", "marks", "audio"), event and event.type
                if event.type == "marks":
                    marked.append([word["text"] for word in event.message["words"]])
                if event.type == "audio":
                    assert len(marked) == len(frames) + 1, "an audio frame came without the marks of its words"
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
    said = [word for chunk in marked for word in chunk]  # each chunk's words, in order, nothing left out
    assert all(marked) and "".join("".join(said).split()) in "".join(text.split())
    if reply in ("chinese", "japanese"):  # per word (jieba's, fugashi's), not per clause
        clause_ends = sum(1 for word in said if word[-1] in "，。、！？")
        assert len(said) >= 3 * clause_ends, said
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
