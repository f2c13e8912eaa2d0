// Preloaded into the Electronegativity scanner: it fetches locale files and
// release lists with `got` 11, whose retry path throws an uncaught error on
// Node 24 when the request cannot connect. The scan itself needs no network,
// so every request the scanner makes fails at once, as it would offline.
import Module from 'node:module'

const offline = () => Promise.reject(new Error('the security scan runs offline'))
offline.head = offline
offline.get = offline
offline.default = offline
const load = Module._load
Module._load = function (request, parent, isMain) {
  if (request === 'got') return offline
  return load.call(this, request, parent, isMain)
}
