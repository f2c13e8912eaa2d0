// `node --import ./register.mjs`: every `import 'electron'` of the process resolves to
// the stand-in below, so a built main process runs in plain Node.
import { registerHooks } from 'node:module'

const stub = new URL('./electron-stub.mjs', import.meta.url).href

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: stub, format: 'module', shortCircuit: true }
    return nextResolve(specifier, context)
  },
})
