// The playground page: sends what to say, plays the 16-bit PCM chunks back to back with Web Audio as
// they arrive, shows the time to first audio, captions from the word marks, and stops on barge-in.
// All speech logic (sentences, session, cancel) is in the Python process behind /session.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  ws: null, audio: null, sampleRate: 24000,
  clickAt: 0, replyStart: null, playhead: 0, sources: [],
  words: [], speaking: false,
  // Read by the tests: what arrived and when.
  stats: { chunks: 0, seconds: 0, firstAudioMs: null, done: false, stopped: null, errors: [], late: 0 },
};
window.playground = state;

function status(text, error = false) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

// A sample reply in each voice's language (a voice's first letter names it): picking a voice of another
// language swaps the sample, never text the user wrote.
const SAMPLES = {
  a: "Sure, I can help with that. Your order shipped this morning and should arrive on Thursday. Is there anything else I can do for you?",
  b: "Certainly. Your parcel left our warehouse this morning and should arrive on Thursday. Is there anything else I can help with?",
  e: "Claro, con gusto le ayudo. Su pedido salió esta mañana y llegará el jueves. ¿Hay algo más en lo que pueda ayudarle?",
  f: "Bien sûr, je peux vous aider. Votre commande est partie ce matin et arrivera jeudi. Puis-je faire autre chose pour vous ?",
  h: "ज़रूर, मैं आपकी मदद कर सकती हूँ। आपका ऑर्डर आज सुबह भेज दिया गया है और गुरुवार तक पहुँच जाएगा।",
  i: "Certo, posso aiutarla. Il suo ordine è partito stamattina e arriverà giovedì. Posso fare altro per lei?",
  j: "かしこまりました。ご注文の品物は今朝発送され、木曜日に届く予定です。ほかにご用件はございますか？",
  p: "Claro, posso ajudar. Seu pedido saiu hoje de manhã e deve chegar na quinta-feira. Posso ajudar em mais alguma coisa?",
  z: "好的，我可以帮您。您的订单今天上午已经发出，预计星期四送达。还有什么可以帮您的吗？",
};

function sampleForVoice() {
  const text = $("text");
  const sample = SAMPLES[$("voice").value[0]];
  if (sample && Object.values(SAMPLES).includes(text.value.trim())) text.value = sample;
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/session`);
  ws.binaryType = "arraybuffer";
  ws.onmessage = (event) => (typeof event.data === "string" ? onMessage(JSON.parse(event.data)) : onAudio(event.data));
  ws.onclose = () => { status("the session closed; reload to start another", true); $("speak").disabled = true; };
  state.ws = ws;
}

function onMessage(message) {
  switch (message.type) {
    case "ready":
      state.sampleRate = message.sample_rate;
      for (const voice of message.voices) $("voice").add(new Option(voice, voice, voice === "af_heart", voice === "af_heart"));
      $("voice").onchange = sampleForVoice;
      $("speak").disabled = false;
      status("ready");
      break;
    case "words":
      state.words.push(...message.words.map(([text, start, end]) => ({ text, start, end })));
      break;
    case "done":
      state.stats.done = true;
      state.speaking = false;
      $("stop").disabled = true;
      status("done");
      break;
    case "stopped":
      state.stats.stopped = message;
      status(`stopped: the listener heard “${message.heard_text || "nothing whole"}” (${Math.round(message.heard_ms)} ms)`);
      break;
    case "error":
      state.stats.errors.push(message.message);
      state.speaking = false;
      $("stop").disabled = true;
      status(message.message, true);
      break;
  }
}

function onAudio(buffer) {
  if (!state.speaking) { state.stats.late += 1; return; } // audio after a stop: there should be none
  if (state.stats.firstAudioMs === null) {
    state.stats.firstAudioMs = Math.round(performance.now() - state.clickAt);
    $("ttfa").textContent = state.stats.firstAudioMs;
  }
  const played = playPcm16(state.audio, buffer, state.sampleRate, state.playhead);
  if (state.replyStart === null) state.replyStart = played.at;
  state.playhead = played.end;
  state.sources.push(played.source);
  state.stats.chunks += 1;
  state.stats.seconds += played.seconds;
  $("played").textContent = state.stats.seconds.toFixed(1);
}

function speak() {
  if (!state.audio) state.audio = new AudioContext();
  state.audio.resume();
  stopPlayback();
  Object.assign(state, { clickAt: performance.now(), replyStart: null, playhead: 0, words: [], speaking: true });
  Object.assign(state.stats, { chunks: 0, seconds: 0, firstAudioMs: null, done: false, stopped: null, errors: [], late: 0 });
  $("ttfa").textContent = "…";
  $("played").textContent = "0.0";
  $("captions").textContent = "";
  $("stop").disabled = false;
  status("speaking…");
  state.ws.send(JSON.stringify({
    type: "speak",
    text: $("text").value,
    voice: $("voice").value,
    speed: Number($("speed").value),
    tokens_per_second: Number($("rate").value),
    marks: $("marks").checked,
  }));
}

function stopPlayback() {
  for (const source of state.sources) { try { source.stop(); } catch (_) { /* not started */ } }
  state.sources = [];
}

function stop() {
  const playedMs = state.replyStart === null ? 0 : Math.max(0, (state.audio.currentTime - state.replyStart) * 1000);
  state.speaking = false;
  stopPlayback();
  $("stop").disabled = true;
  state.ws.send(JSON.stringify({ type: "stop", played_ms: playedMs }));
}

function drawCaptions() {
  if (state.replyStart !== null && state.audio) {
    const now = state.audio.currentTime - state.replyStart;
    const said = state.words.filter((word) => word.start <= now).slice(-14);
    const box = $("captions");
    box.replaceChildren(...said.map((word, index) => {
      const span = document.createElement("span");
      span.textContent = word.text + " ";
      if (index === said.length - 1 && now <= word.end + 0.3) span.className = "now";
      return span;
    }));
  }
  requestAnimationFrame(drawCaptions);
}

$("speak").onclick = speak;
$("stop").onclick = stop;
connect();
requestAnimationFrame(drawCaptions);
