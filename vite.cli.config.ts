import { builtinModules } from 'node:module'
import { resolve } from 'node:path'
import { defineConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }

/**
 * What stays a runtime `import` of node_modules instead of being bundled: native addons
 * (better-sqlite3, node-pty), packages that find files next to themselves at run time (ripgrep's
 * binary, the WASM of web-tree-sitter and tree-sitter-bash, tsx and esbuild, which load custom
 * tools by path). Everything else
 * (zod, chokidar, ws, the provider SDKs, the MCP SDK…) is bundled, so start-up reads a few
 * files instead of hundreds; the provider SDKs land in their own chunks, loaded on first use.
 */
const KEPT_EXTERNAL = ['better-sqlite3', '@lydell/node-pty', '@vscode/ripgrep', 'web-tree-sitter', 'tree-sitter-bash', 'tsx', 'esbuild']
for (const name of KEPT_EXTERNAL) {
  if (name !== 'esbuild' && !(name in pkg.dependencies)) throw new Error(`vite.cli.config.ts: ${name} is no dependency any more`)
}

const external = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), ...KEPT_EXTERNAL].map(
  (name) => new RegExp(`^${name.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')}(/.*)?$`),
)

/** The `hotaru` CLI and `hotaru serve`, built for the system Node (≥ 20) as ES modules. */
export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'src/shared') } },
  // Bundle dependencies (an SSR build leaves them external by default); `external` decides.
  ssr: { noExternal: true },
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
        // The project's file watch, in its own thread (project/watcher.ts).
        'watch-worker': resolve(import.meta.dirname, 'src/main/core/project/watch-worker.ts'),
        // The database's WAL checkpoints, in their own thread (storage/wal-checkpoints.ts).
        'wal-worker': resolve(import.meta.dirname, 'src/main/core/storage/wal-worker.ts'),
      },
      external,
      // Doc comments are dropped (license notices stay): Node reads, decodes and hashes every byte of
      // a chunk on each start, and a third of the core chunks was JSDoc. The source maps keep them.
      // Non-ASCII characters are escaped: one such character anywhere made V8 hold the whole chunk as a
      // two-byte string (twice the memory, a slower decode and scan at every start).
      output: { format: 'es', entryFileNames: '[name].js', charset: 'ascii', comments: { legal: true, annotation: false, jsdoc: false } },
    },
  },
})
