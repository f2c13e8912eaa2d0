import { builtinModules } from 'node:module'
import { resolve } from 'node:path'
import { defineConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }

const external = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  ...Object.keys(pkg.dependencies),
].map((name) => new RegExp(`^${name.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')}(/.*)?$`))

/** The `hotaru` CLI and `hotaru serve`, built for the system Node (≥ 20) as ES modules. */
export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'src/shared') } },
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'out/cli',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      input: {
        main: resolve(import.meta.dirname, 'src/cli/main.ts'),
        // The snapshot engine's worker thread, found next to main.js at run time (worker-entry.ts).
        'snapshot-worker': resolve(import.meta.dirname, 'src/main/core/snapshot/worker.ts'),
      },
      external,
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
})
