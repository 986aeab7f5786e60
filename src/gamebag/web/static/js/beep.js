// The table's "your move" sound: a short tone made on the spot (no audio file to load).
let audio = null;
/** A short tone, where the device has sound; silent otherwise. */
export function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.35);
  } catch (ignored) {
    // no sound device: the title and vibration still tell
  }
}
