// A browser client of the speech server's text streaming (docs/protocol.md#text-streaming), with no library:
// a fake LLM's tokens are appended to a context as they are written, the server cuts the sentences, and the
// 16-bit PCM it sends back is played with Web Audio as it arrives. Stop cancels the context (barge-in).
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  ws: null, audio: null, sampleRate: 24000, playhead: 0, context: null, contexts: 0, startedAt: 0,
  // Read by the tests: what arrived.
  stats: { sentences: [], chunks: 0, seconds: 0, firstAudioMs: null, ended: null, errors: [] },
};
window.streaming = state;

function status(text, error = false) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

function send(message) { state.ws.send(JSON.stringify(message)); }

function connect() {
  const server = new URLSearchParams(location.search).get("server") || "ws://127.0.0.1:8080/invocations-bidirectional-stream";
  const ws = new WebSocket(server);
  ws.binaryType = "arraybuffer";
  ws.onmessage = (event) => (typeof event.data === "string" ? onMessage(JSON.parse(event.data)) : onAudio(event.data));
  ws.onclose = () => status("the session closed; reload to start another", true);
  state.ws = ws;
}

function onMessage(message) {
  switch (message.type) {
    case "ready":
      send({ type: "configure", format: "pcm16", sample_rate: 24000 });
      break;
    case "configured":
      state.sampleRate = message.sample_rate;
      $("stream").disabled = false;
      status("ready");
      break;
    case "start":
      if (message.context === state.context) {
        state.stats.sentences.push(message.text);
        $("sentences").append(Object.assign(document.createElement("li"), { textContent: message.text }));
      }
      break;
    case "context_ended":
      if (message.context === state.context) {
        state.stats.ended = message.reason;
        $("stop").disabled = true;
        status(`context ${message.reason}`);
      }
      break;
    case "error":
      state.stats.errors.push(`${message.code}: ${message.message}`);
      status(message.message, true);
      break;
  }
}

function onAudio(buffer) {
  if (state.context === null) return;
  if (state.stats.firstAudioMs === null) {
    state.stats.firstAudioMs = Math.round(performance.now() - state.startedAt);
    $("ttfa").textContent = state.stats.firstAudioMs;
  }
  const played = playPcm16(state.audio, buffer, state.sampleRate, state.playhead);
  state.playhead = played.end;
  state.stats.chunks += 1;
  state.stats.seconds += played.seconds;
}

// The fake LLM: the text in tokens of three or four characters, at the chosen rate.
async function* fakeLlm(text, perSecond) {
  for (let at = 0; at < text.length;) {
    const size = 3 + (at % 2);
    yield text.slice(at, at + size);
    at += size;
    await new Promise((resolve) => setTimeout(resolve, 1000 / perSecond));
  }
}

async function stream() {
  state.audio = state.audio || new AudioContext({ sampleRate: state.sampleRate });
  state.contexts += 1;
  const context = `turn-${state.contexts}`;
  Object.assign(state, { context, playhead: 0, startedAt: performance.now() });
  Object.assign(state.stats, { sentences: [], chunks: 0, seconds: 0, firstAudioMs: null, ended: null });
  $("sentences").replaceChildren();
  $("stop").disabled = false;
  status("streaming");
  send({ type: "open", context });
  for await (const token of fakeLlm($("text").value, Number($("rate").value) || 40)) {
    if (state.context !== context || state.stats.ended) return; // stopped
    send({ type: "append", context, text: token });
  }
  send({ type: "end", context });
}

function stop() {
  if (state.context !== null) send({ type: "cancel", context: state.context });
}

$("stream").onclick = stream;
$("stop").onclick = stop;
connect();
