// Preloaded into the Electronegativity run by lint-security.mjs. At start the
// scanner fetches translations from the internet with `got` (1 s timeout); without
// a network, got's retry throws from a timer (p-cancelable: "onCancel handler was
// attached after the promise settled") and kills the scan. The scan needs no
// network: `got` fails at once, and the scanner keeps its bundled English texts.
import Module from 'node:module'

const offlineGot = () => Promise.reject(new Error('the security scan makes no network requests'))
const load = Module._load
Module._load = function loadOffline(request, ...rest) {
  if (request === 'got') return offlineGot
  return load.call(this, request, ...rest)
}
