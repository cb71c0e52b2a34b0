// Both pages' playback: one chunk of 16-bit mono PCM scheduled on a Web Audio context right after the
// chunk before it (or a moment from now, so it starts whole), as chunks arrive.
function playPcm16(audio, buffer, sampleRate, playhead) {
  const samples = new Int16Array(buffer);
  const clip = audio.createBuffer(1, samples.length, sampleRate);
  const channel = clip.getChannelData(0);
  for (let i = 0; i < samples.length; i++) channel[i] = samples[i] / 32768;
  const source = audio.createBufferSource();
  source.buffer = clip;
  source.connect(audio.destination);
  const at = Math.max(playhead, audio.currentTime + 0.02);
  source.start(at);
  return { source, at, end: at + clip.duration, seconds: clip.duration };
}
